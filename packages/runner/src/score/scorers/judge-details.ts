import type { AnswerStatus, TaskStatus, UnsolvedBeforeJudging } from '@skein/toolbench';

/** The `details` of a StableToolBench judge score: what `toolBenchPassRate` reads back. */
export interface JudgeDetails {
  readonly query: string;
  /** The converted answer's `final_answer` (the raw Finish arguments, or `""`). */
  readonly finalAnswer: string;
  /** `"Final step: <python repr>"` of the last tool step, or `""`: the pre-judge rule reads it. */
  readonly finalStep: string;
  /** Set when the answer is Unsolved before any judge reads it (and no answer verdict was asked). */
  readonly unsolvedBeforeJudging?: UnsolvedBeforeJudging;
  /** The answer verdict of each round (judgement), round 0 first. */
  readonly answerStatus: readonly AnswerStatus[];
  /** The task verdict of each round, null where none was asked (a Solved answer needs none). */
  readonly taskStatus?: readonly (TaskStatus | null)[];
  /** The judge's reason for each round's answer verdict (null where it was not asked). */
  readonly reasons: readonly (string | null)[];
}

const POINTS: Readonly<Record<AnswerStatus, number>> = { Solved: 1, Unsure: 0.5, Unsolved: 0 };

/**
 * An item's score from its rounds: the verdict most rounds gave (Solved 1, Unsure 0.5, Unsolved
 * 0), and 0.5 when two verdicts tie for most. Not the benchmark's figure, which
 * `toolBenchPassRate` computes over the run: a per-item number for `skein compare`.
 */
export function majorityScore(verdicts: readonly AnswerStatus[]): {
  score: number;
  verdict: AnswerStatus | 'tie';
} {
  const counts = new Map<AnswerStatus, number>();
  for (const verdict of verdicts) counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
  let best: AnswerStatus | 'tie' = 'tie';
  let most = 0;
  for (const [verdict, count] of counts)
    if (count > most) {
      most = count;
      best = verdict;
    } else if (count === most) best = 'tie';
  return best === 'tie' ? { score: 0.5, verdict: 'tie' } : { score: POINTS[best], verdict: best };
}
