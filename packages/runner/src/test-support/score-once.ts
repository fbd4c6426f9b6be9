import { type ScorerOutcome, scoreItem } from '../score/run-scorer.js';
import type { Scorer } from '../score/scorer.js';
import type { FinishedItem } from '../score/scorer-input.js';

/** Scores one item with one scorer as a run does, resolving with how it ended. */
export async function scoreOnce(
  scorer: Scorer,
  item: FinishedItem,
  timeoutMs = 60_000,
  runSignal?: AbortSignal,
): Promise<ScorerOutcome> {
  let ended: ScorerOutcome;
  await scoreItem([scorer], item, timeoutMs, runSignal, (_, __, outcome) => {
    ended = outcome;
  });
  return ended;
}
