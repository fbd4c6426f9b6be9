// StableToolBench's solvable pass rate, the "Solve rate: x% Std: y%" eval_pass_rate.py prints and
// the published tables show as x±y (StableToolBench `toolbench/tooleval/eval_pass_rate.py`
// L122-144 at aa4ed9f):
// - for each round `runtime` in `range(evaluate_times)` (L123), a query scores 1 when its verdict
//   of that round is `AnswerStatus.Solved`, 0.5 when `AnswerStatus.Unsure`, and 0 when it is
//   Unsolved or the round is missing (L126-134);
// - the round's score is that sum over all queries of the file divided by their number (L137);
// - the solve rate is the mean of the round scores (L142) and the std their population standard
//   deviation, `np.std` with its default ddof=0 (L143); both are printed ×100, to one decimal
//   (L144).
// No random number is involved.
//
// The arithmetic is the reference's, step for step: a round's score counts half points, exact,
// then divides once by the number of queries (Python's `score / len(label_cnt)`); the mean is
// Python's `sum(scores) / len(scores)` and the std numpy's (reference-float.ts). So the figures
// are the reference's doubles, and print as it prints them.

import { unsolvedBeforeJudging } from './pre-judge.js';
import { numpyStd, pythonSum } from './reference-float.js';
import type { AnswerStatus, QueryVerdicts } from './verdicts.js';

const HALF_POINTS: Readonly<Record<AnswerStatus, number>> = { Solved: 2, Unsure: 1, Unsolved: 0 };

export interface SolveRate {
  /** The mean over rounds of the share of queries solved (Unsure = 0.5), in [0, 1]. */
  readonly solveRate: number;
  /** The population standard deviation of `perRound`, in [0, 0.5]. */
  readonly std: number;
  /** The score of each round, in round order: the reference's `scores`. */
  readonly perRound: readonly number[];
  /** Half points each query scored, over all rounds (2 per Solved round, 1 per Unsure round). */
  readonly halfPoints: ReadonlyMap<string, number>;
}

/** Half points of `query` in `round`: 0 when it fails the pre-judge rule, whatever its verdict. */
function roundHalfPoints(query: QueryVerdicts, round: number): number {
  if (unsolvedBeforeJudging(query) !== undefined) return 0;
  const status = query.answerStatus.get(round);
  return status === undefined ? 0 : HALF_POINTS[status];
}

/** The solve rate of checked verdicts (`queries` not empty, `evaluateTimes` ≥ 1). */
export function solveRate(queries: readonly QueryVerdicts[], evaluateTimes: number): SolveRate {
  const n = queries.length;
  const perRoundHalves: number[] = [];
  const halfPoints = new Map<string, number>();
  for (let round = 0; round < evaluateTimes; round++) {
    let halves = 0;
    for (const query of queries) {
      const h = roundHalfPoints(query, round);
      halves += h;
      halfPoints.set(query.qid, (halfPoints.get(query.qid) ?? 0) + h);
    }
    perRoundHalves.push(halves);
  }
  const perRound = perRoundHalves.map((halves) => halves / 2 / n);
  return {
    solveRate: pythonSum(perRound) / evaluateTimes,
    std: numpyStd(perRound),
    perRound,
    halfPoints,
  };
}
