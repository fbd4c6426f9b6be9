import type { ScoreLine } from './read-scores.js';

/** One scorer's figures in a run summary. */
export interface ScorerSummary {
  /** Items with a score of this scorer in `scores.jsonl`, earlier processes included. */
  readonly scored: number;
  /** Their mean score; null before the first. */
  readonly mean: number | null;
  /** Calls of this scorer in this process that gave no score (see `score-errors.jsonl`). */
  readonly failed: number;
}

interface Tally {
  /** Items earlier processes scored (the lines of the file when the run began). */
  readonly earlier: Set<string>;
  scored: number;
  sum: number;
  failed: number;
}

/**
 * The (item, scorer) pairs a run folder's `scores.jsonl` held when this process began, with each
 * scorer's count and sum for the summary: what keeps every pair in the file once, since a pair it
 * holds is never scored again. Pairs this process scores are only counted: each item reaches the
 * scorers once per process (a new item, or a finished one without its scores), so remembering
 * them would cost memory growing with the dataset for nothing.
 */
export class ScoreBook {
  readonly #scorers = new Map<string, Tally>();
  #anyEarlier = false;

  constructor(scorers: readonly string[] = []) {
    for (const name of scorers) this.#tally(name);
  }

  /** Whether `scores.jsonl` held a score of `scorer` for the item when this process began. */
  has(scorer: string, itemId: string): boolean {
    const earlier = this.#scorers.get(scorer)?.earlier;
    return earlier !== undefined && earlier.size !== 0 && earlier.has(itemId);
  }

  /** Whether the file held no score of the item at all when this process began (the usual case). */
  hasNone(itemId: string): boolean {
    if (!this.#anyEarlier) return true;
    for (const tally of this.#scorers.values()) if (tally.earlier.has(itemId)) return false;
    return true;
  }

  /** Whether some of `scorers` had no score for the item when this process began. */
  lacksAny(scorers: readonly { readonly name: string }[], itemId: string): boolean {
    for (const { name } of scorers) if (!this.has(name, itemId)) return true;
    return false;
  }

  /** A line of the file, read when the process began. */
  addEarlier(line: Pick<ScoreLine, 'itemId' | 'scorer' | 'score'>): void {
    const tally = this.#tally(line.scorer);
    tally.earlier.add(line.itemId);
    this.#anyEarlier = true;
    tally.scored++;
    tally.sum += line.score;
  }

  /** A score this process wrote. */
  add(scorer: string, score: number): void {
    const tally = this.#tally(scorer);
    tally.scored++;
    tally.sum += score;
  }

  failed(scorer: string): void {
    this.#tally(scorer).failed++;
  }

  /** Figures per scorer, in the order the scorers were first seen. */
  summary(): Record<string, ScorerSummary> {
    const summary: Record<string, ScorerSummary> = {};
    for (const [name, { scored, sum, failed }] of this.#scorers)
      summary[name] = { scored, mean: scored === 0 ? null : sum / scored, failed };
    return summary;
  }

  #tally(scorer: string): Tally {
    let tally = this.#scorers.get(scorer);
    if (!tally) {
      tally = { earlier: new Set(), scored: 0, sum: 0, failed: 0 };
      this.#scorers.set(scorer, tally);
    }
    return tally;
  }
}
