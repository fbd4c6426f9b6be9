// Both figures of a set of recorded judge verdicts: StableToolBench's solve rate ("Solvable Pass
// Rate", mean ± std over rounds; solve-rate.ts) and ToolBench's pass rate (majority of rounds,
// ties pass, Unsure settled by a coin; toolbench-pass.ts).

import { invalidVerdicts } from './invalid-verdicts.js';
import { type UnsolvedBeforeJudging, unsolvedBeforeJudging } from './pre-judge.js';
import { solveRate } from './solve-rate.js';
import { type QueryPass, toolBenchPass } from './toolbench-pass.js';
import { checkQueryVerdicts, type QueryVerdicts } from './verdicts.js';

/** 42: the seed `toolbench/tooleval/utils.py` L6 gives Python's `random`. */
export const DEFAULT_PASS_RATE_SEED = 42;

export interface PassRateOptions {
  /**
   * `--evaluate_times`: rounds 0 … evaluateTimes − 1 are scored (eval_pass_rate.py L123), a round
   * a query lacks scoring 0 and later rounds being ignored. Default: one more than the highest
   * round recorded (3 for the files the README's command writes, `--evaluate_times 3`).
   */
  readonly evaluateTimes?: number;
  /** The coins' seed (an integer; default 42). */
  readonly seed?: number;
}

/** A round of a query. */
export interface QueryRound {
  readonly qid: string;
  readonly round: number;
}

export interface QueryFigures {
  readonly qid: string;
  /** Why the query is Unsolved before judging, if it is (it then scores 0 in every round). */
  readonly unsolvedBeforeJudging: UnsolvedBeforeJudging | undefined;
  /** Its solve points over all rounds: 1 per Solved round, 0.5 per Unsure one. */
  readonly solvePoints: number;
  /** Its ToolBench pass (counts, label, coins), unless a task verdict it needs is missing. */
  readonly pass: QueryPass | undefined;
}

export interface PassRateFigures {
  /** Queries scored (`len(label_cnt)`). */
  readonly queries: number;
  /** Rounds scored. */
  readonly evaluateTimes: number;
  /**
   * StableToolBench's solvable pass rate, in [0, 1]: the mean over rounds of the share of queries
   * Solved, Unsure counting 0.5. The published tables show it ×100 (`formatSolveRate`).
   */
  readonly solveRate: number;
  /** The population standard deviation of `perRound` (`np.std`), in [0, 0.5]. */
  readonly std: number;
  /** Each round's share of queries solved (Unsure = 0.5), in round order. */
  readonly perRound: readonly number[];
  /**
   * ToolBench's pass rate, in [0, 1]: the share of queries with `failed <= passed` over their
   * rounds. Undefined when a round that is not Solved has no task verdict (`undecided`); the
   * results files of StableToolBench's current evaluator have none.
   */
  readonly passRate: number | undefined;
  /** Rounds whose pass a coin decided; 0 means `passRate` has no coin in it. */
  readonly passRateCoins: number;
  /** Rounds the pass rate needs a task verdict for and has none. */
  readonly undecided: readonly QueryRound[];
  /** Rounds below `evaluateTimes` with no answer verdict (0 in the solve rate, not counted in the pass rate). */
  readonly missing: readonly QueryRound[];
  readonly perQuery: readonly QueryFigures[];
}

function resolveEvaluateTimes(
  queries: readonly QueryVerdicts[],
  evaluateTimes: number | undefined,
): number {
  if (evaluateTimes !== undefined) {
    if (!Number.isSafeInteger(evaluateTimes) || evaluateTimes < 1)
      throw invalidVerdicts('options.evaluateTimes', 'is not an integer of at least 1', {
        field: 'evaluateTimes',
      });
    return evaluateTimes;
  }
  let highest = -1;
  for (const query of queries)
    for (const round of query.answerStatus.keys()) highest = Math.max(highest, round);
  if (highest < 0)
    throw invalidVerdicts('queries', 'record no round at all: give options.evaluateTimes', {
      field: 'answerStatus',
    });
  return highest + 1;
}

/**
 * The solve rate and the pass rate of recorded verdicts (`parsePassRateResults` reads them from
 * a results file), as the benchmark computes them. Everything is checked first: a bad verdict or
 * option throws `InvalidArgumentError` (the query in `details.qid`, the field in
 * `details.field`), and nothing is computed.
 */
export function computePassRate(
  queries: readonly QueryVerdicts[],
  options: PassRateOptions = {},
): PassRateFigures {
  checkQueryVerdicts(queries);
  if (queries.length === 0) throw invalidVerdicts('queries', 'is empty: there is nothing to score');
  const seed = options.seed ?? DEFAULT_PASS_RATE_SEED;
  if (!Number.isSafeInteger(seed))
    throw invalidVerdicts('options.seed', 'is not an integer', { field: 'seed' });
  const evaluateTimes = resolveEvaluateTimes(queries, options.evaluateTimes);

  const solve = solveRate(queries, evaluateTimes);
  const undecided: QueryRound[] = [];
  const missing: QueryRound[] = [];
  const perQuery: QueryFigures[] = [];
  let passing = 0;
  let coins = 0;
  for (const query of queries) {
    for (let round = 0; round < evaluateTimes; round++)
      if (!query.answerStatus.has(round)) missing.push({ qid: query.qid, round });
    const { pass, undecidedRounds } = toolBenchPass(query, evaluateTimes, seed);
    for (const round of undecidedRounds) undecided.push({ qid: query.qid, round });
    if (pass?.passes) passing++;
    coins += pass?.coins ?? 0;
    perQuery.push({
      qid: query.qid,
      unsolvedBeforeJudging: unsolvedBeforeJudging(query),
      solvePoints: (solve.halfPoints.get(query.qid) ?? 0) / 2,
      pass,
    });
  }
  return {
    queries: queries.length,
    evaluateTimes,
    solveRate: solve.solveRate,
    std: solve.std,
    perRound: solve.perRound,
    // `pass_rate /= len(label_cnt)` (eval_pass_rate.py L189 at 45b9007): one division.
    passRate: undecided.length === 0 ? passing / queries.length : undefined,
    passRateCoins: coins,
    undecided,
    missing,
    perQuery,
  };
}
