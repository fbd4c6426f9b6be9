import {
  type BootstrapOptions,
  bootstrapMean,
  bootstrapPairedDifference,
  type MeanEstimate,
  type PairedDifference,
} from './bootstrap.js';
import type { ScoresByScorer } from './read-scores.js';

/** An item both runs scored, whose score differs. */
interface ChangedItem {
  readonly itemId: string;
  readonly a: number;
  readonly b: number;
  /** b − a */
  readonly difference: number;
}

/** One scorer both runs used. */
export interface ScorerComparison {
  readonly scorer: string;
  /** Items both runs scored: the difference is over these. */
  readonly n: number;
  /** Over every item run A scored. */
  readonly a: MeanEstimate;
  /** Over every item run B scored. */
  readonly b: MeanEstimate;
  /** B − A over the `n` paired items. */
  readonly difference: PairedDifference;
  /** Paired items whose score differs, largest change first, then by item id. */
  readonly changed: readonly ChangedItem[];
  /** Items only one run scored, sorted: in the means, not in the difference. */
  readonly itemsOnlyInA: readonly string[];
  readonly itemsOnlyInB: readonly string[];
}

export interface ScoresComparison {
  /** Scorers both runs used, sorted. */
  readonly scorers: readonly ScorerComparison[];
  /** Scorers only one run used, sorted: not compared. */
  readonly scorersOnlyInA: readonly string[];
  readonly scorersOnlyInB: readonly string[];
}

/** By code unit, the same on every machine (localeCompare is not). */
function byId(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

function sorted(ids: Iterable<string>): string[] {
  return [...ids].sort(byId);
}

function compareScorer(
  scorer: string,
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  options: BootstrapOptions,
): ScorerComparison {
  // Sorted ids, not file order: lines are written as items finish, in no fixed order, and the
  // bootstrap's draws must meet the same items for the same scores.
  const paired = sorted([...a.keys()].filter((id) => b.has(id)));
  const pairedA = paired.map((id) => a.get(id)!);
  const pairedB = paired.map((id) => b.get(id)!);
  const changed = paired
    .map((itemId, i) => ({
      itemId,
      a: pairedA[i]!,
      b: pairedB[i]!,
      difference: pairedB[i]! - pairedA[i]!,
    }))
    .filter((item) => item.a !== item.b)
    .sort((x, y) => Math.abs(y.difference) - Math.abs(x.difference) || byId(x.itemId, y.itemId));
  const idsA = sorted(a.keys());
  const idsB = sorted(b.keys());
  return {
    scorer,
    n: paired.length,
    a: bootstrapMean(
      idsA.map((id) => a.get(id)!),
      options,
    ),
    b: bootstrapMean(
      idsB.map((id) => b.get(id)!),
      options,
    ),
    difference: bootstrapPairedDifference(pairedA, pairedB, options),
    changed,
    itemsOnlyInA: idsA.filter((id) => !b.has(id)),
    itemsOnlyInB: idsB.filter((id) => !a.has(id)),
  };
}

/** Compares the scores of run A with those of run B, scorer by scorer. */
export function compareScores(
  a: ScoresByScorer,
  b: ScoresByScorer,
  options: BootstrapOptions = {},
): ScoresComparison {
  return {
    scorers: sorted([...a.keys()].filter((scorer) => b.has(scorer))).map((scorer) =>
      compareScorer(scorer, a.get(scorer)!, b.get(scorer)!, options),
    ),
    scorersOnlyInA: sorted([...a.keys()].filter((scorer) => !b.has(scorer))),
    scorersOnlyInB: sorted([...b.keys()].filter((scorer) => !a.has(scorer))),
  };
}
