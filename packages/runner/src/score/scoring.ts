import { join } from 'node:path';
import type { SkeinEngine, ThreadContext } from '@skein/core';
import { invalidOption } from '../errors/invalid-option.js';
import { ScoreError } from '../errors/score-error.js';
import { type ItemResult, threadIdOf } from '../output/item-result.js';
import { SCORE_ERRORS_FILE, SCORES_FILE } from '../output/run-files.js';
import { cutTornErrorLine, readOwnScores } from './read-own-scores.js';
import type { ScoreLine } from './read-scores.js';
import { DEFAULT_SCORE_TIMEOUT_MS, type ScorerOutcome, scoreItem } from './run-scorer.js';
import { ScoreBook, type ScorerSummary } from './score-book.js';
import { type ScoreFailure, ScoreWriter } from './score-writer.js';
import type { Scorer, ScoreValue } from './scorer.js';
import { FinishedItem } from './scorer-input.js';

/** A score as `onScore` hooks get it: its line, with the run and thread it belongs to. */
export interface ScoreReport extends ScoreLine {
  readonly runId: string;
  readonly threadId: string;
}

/** How a run's items are scored (`runDataset` and `scoreRun` options). */
export interface ScoringOptions {
  /** Each item finished is scored by each of these (see `Scorer`); names must be unique. */
  readonly scorers?: readonly Scorer[];
  /**
   * Milliseconds the scorers of an item may take, together (they start at once), before those
   * still running give no score (default 60,000).
   */
  readonly scoreTimeoutMs?: number;
  /** Called with each score as its line is queued for `scores.jsonl`. */
  readonly onScore?: (score: ScoreReport) => void;
  /** Called with each scorer call that gave no score, as its line of `score-errors.jsonl`. */
  readonly onScoreError?: (failure: ScoreFailure) => void;
}

/** The scorers, checked: objects with a non-empty, unique name and a `score` function. */
export function checkScorers(scorers: unknown): readonly Scorer[] {
  if (scorers === undefined) return [];
  if (!Array.isArray(scorers)) throw invalidOption('scorers', 'must be a list of scorers');
  const names = new Set<string>();
  scorers.forEach((scorer: unknown, i) => {
    const { name, score } = (scorer ?? {}) as Partial<Scorer>;
    if (typeof name !== 'string' || name.trim() === '')
      throw invalidOption(`scorers[${i}].name`, 'must be a non-empty string');
    if (typeof score !== 'function')
      throw invalidOption(`scorers[${i}].score`, `must be a function (scorer "${name}")`);
    if (names.has(name))
      throw invalidOption(`scorers[${i}].name`, `"${name}" is the name of an earlier scorer`);
    names.add(name);
  });
  return scorers as readonly Scorer[];
}

/** The time limit, checked: a whole number of milliseconds a timer can wait. */
export function checkScoreTimeout(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return DEFAULT_SCORE_TIMEOUT_MS;
  if (
    typeof timeoutMs !== 'number' ||
    !Number.isInteger(timeoutMs) ||
    timeoutMs < 1 ||
    timeoutMs > 2_147_483_647
  )
    throw invalidOption(
      'scoreTimeoutMs',
      `must be a whole number of milliseconds from 1 to 2147483647, got ${String(timeoutMs)}`,
    );
  return timeoutMs;
}

/**
 * Scores a run's finished items into its folder, each (item, scorer) once: the pairs
 * `scores.jsonl` held when it opened are never scored again (and each item comes to a process
 * once), a torn last line is cut when it opens, and a call that gives no score leaves the pair to
 * the next process (a line of `score-errors.jsonl` says why).
 */
export class Scoring {
  readonly #runId: string;
  readonly #scorers: readonly Scorer[];
  readonly #timeoutMs: number;
  readonly #signal: AbortSignal | undefined;
  readonly #options: ScoringOptions;
  readonly #book: ScoreBook;
  readonly #writer: ScoreWriter;
  readonly #record = (item: FinishedItem, scorer: string, outcome: ScorerOutcome): void => {
    if (outcome === undefined) return;
    if (!(outcome instanceof ScoreError)) {
      this.#book.add(scorer, outcome.score);
      this.#writer.addScore(item.itemId, scorer, outcome);
      if (this.#options.onScore) this.#options.onScore(this.#report(item, scorer, outcome));
      return;
    }
    const failure: ScoreFailure = {
      itemId: item.itemId,
      scorer,
      code: outcome.code,
      message: outcome.message,
    };
    this.#book.failed(scorer);
    this.#writer.addError(failure);
    this.#options.onScoreError?.(failure);
  };

  /** A score as `onScore` gets it: the fields of its line, in its order, then run and thread. */
  #report(item: FinishedItem, scorer: string, value: ScoreValue): ScoreReport {
    const report: { -readonly [K in keyof ScoreReport]: ScoreReport[K] } = {
      itemId: item.itemId,
      scorer,
      score: value.score,
      runId: this.#runId,
      threadId: item.threadId,
    };
    if (value.reason !== undefined) report.reason = value.reason;
    if (value.details !== undefined) report.details = value.details;
    return report;
  }

  private constructor(
    runId: string,
    scorers: readonly Scorer[],
    options: ScoringOptions & { readonly signal?: AbortSignal | undefined },
    book: ScoreBook,
    writer: ScoreWriter,
  ) {
    this.#runId = runId;
    this.#scorers = scorers;
    this.#timeoutMs = checkScoreTimeout(options.scoreTimeoutMs);
    this.#signal = options.signal;
    this.#options = options;
    this.#book = book;
    this.#writer = writer;
  }

  /**
   * Reads the scores the folder holds (cutting a torn last line) and opens its files for
   * appending. Call it only on a folder of this run, checked (`checkRunFolder`).
   */
  static async open(
    folder: string,
    runId: string,
    scorers: readonly Scorer[],
    options: ScoringOptions & { readonly signal?: AbortSignal | undefined },
  ): Promise<Scoring> {
    const book = new ScoreBook(scorers.map((s) => s.name));
    await readOwnScores(join(folder, SCORES_FILE), book);
    await cutTornErrorLine(join(folder, SCORE_ERRORS_FILE));
    return new Scoring(runId, scorers, options, book, new ScoreWriter(folder));
  }

  /** Whether some scorer has no score for the item yet. */
  lacksScores(itemId: string): boolean {
    return this.#book.lacksAny(this.#scorers, itemId);
  }

  /**
   * Scores a finished item with every scorer that has no score for it, at once; resolves when
   * each has a line or an error queued (or the run was stopped under it). Returns nothing, at
   * once, when every scorer answered at once.
   */
  score(
    item: unknown,
    result: ItemResult,
    thread: ThreadContext | undefined,
  ): undefined | Promise<void> {
    const finished = new FinishedItem(
      item,
      result,
      result.threadId ?? threadIdOf(this.#runId, result.itemId),
      thread,
      this.#signal,
    );
    // All of them, unless an earlier process scored some: the list is made only then.
    let scorers = this.#scorers;
    if (!this.#book.hasNone(result.itemId))
      scorers = scorers.filter((scorer) => !this.#book.has(scorer.name, result.itemId));
    return scoreItem(scorers, finished, this.#timeoutMs, this.#signal, this.#record);
  }

  /** Scores an item an earlier process finished, its thread read from the engine's store. */
  async scoreStored(engine: SkeinEngine, item: unknown, result: ItemResult): Promise<void> {
    let thread: ThreadContext | undefined;
    try {
      thread = await engine.getThread(result.threadId ?? threadIdOf(this.#runId, result.itemId));
    } catch {
      // Not readable: the scorers that need it say so (SCORE_INPUT_MISSING) and it is tried again.
      thread = undefined;
    }
    await this.score(item, result, thread);
  }

  /** Throws a write failure of a scheduled flush. */
  check(): void {
    this.#writer.check();
  }

  close(): void {
    this.#writer.close();
  }

  summary(): Record<string, ScorerSummary> {
    return this.#book.summary();
  }
}
