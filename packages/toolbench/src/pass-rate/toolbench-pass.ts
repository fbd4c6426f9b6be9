// The ToolBench pass rate of one query: the rule of ToolBench's `toolbench/tooleval/
// eval_pass_rate.py` (d56fdd8), kept by StableToolBench until 45b9007 and dropped at 52443be
// (so not in aa4ed9f, whose results files these are). Lines are StableToolBench's at 45b9007:
// - each round is labelled passed or failed (L59-119): a query without a final Finish step is
//   failed outright (L71-72); otherwise `is_passed` turns the round's answer and task verdicts
//   into Passed, Failed or Unsure (L98-106, see is-passed.ts), and Unsure is settled by a coin,
//   `random.random() < 0.5` → passed (L114-117);
// - a query passes when `failed <= passed` over its rounds, so a tie passes (L185-189);
// - the CSV's `pass_rate_label` (L33-42) is the majority, with a coin for a tie; it is not the
//   figure, which counts ties as passes.

import { isPassed } from './is-passed.js';
import { unsolvedBeforeJudging } from './pre-judge.js';
import { coin } from './seeded-random.js';
import type { QueryVerdicts } from './verdicts.js';

export interface QueryPass {
  /** Rounds labelled passed and failed. */
  readonly passed: number;
  readonly failed: number;
  /** `failed <= passed`: what the pass rate counts (a tie passes). */
  readonly passes: boolean;
  /** The CSV's `pass_rate_label`: the majority, a coin for a tie. */
  readonly label: 'passed' | 'failed';
  /** Rounds whose label a coin decided (an Unsure `is_passed`). */
  readonly coins: number;
  /**
   * Where the counts come from: the pre-judge rule (no Finish, every round failed), the file's
   * recorded `passed` / `failed`, or the rounds' verdicts.
   */
  readonly from: 'pre-judge' | 'recorded' | 'verdicts';
}

export interface QueryPassResult {
  /** Undefined when a round lacks the task verdict its answer verdict needs. */
  readonly pass: QueryPass | undefined;
  /** Rounds that need a task verdict and have none. */
  readonly undecidedRounds: readonly number[];
}

function settle(
  qid: string,
  passed: number,
  failed: number,
  coins: number,
  from: QueryPass['from'],
  seed: number,
): QueryPass {
  const label =
    passed === failed
      ? coin(seed, ['tie', qid])
        ? 'passed'
        : 'failed'
      : passed > failed
        ? 'passed'
        : 'failed';
  return { passed, failed, passes: failed <= passed, label, coins, from };
}

/** The ToolBench pass of checked verdicts over rounds 0 … evaluateTimes − 1. */
export function toolBenchPass(
  query: QueryVerdicts,
  evaluateTimes: number,
  seed: number,
): QueryPassResult {
  const before = unsolvedBeforeJudging(query);
  if (before === 'no-finish')
    return {
      pass: settle(query.qid, 0, evaluateTimes, 0, 'pre-judge', seed),
      undecidedRounds: [],
    };
  if (query.recordedCounts !== undefined) {
    const { passed, failed } = query.recordedCounts;
    return { pass: settle(query.qid, passed, failed, 0, 'recorded', seed), undecidedRounds: [] };
  }
  let passed = 0;
  let failed = 0;
  let coins = 0;
  const undecidedRounds: number[] = [];
  for (let round = 0; round < evaluateTimes; round++) {
    const recorded = query.answerStatus.get(round);
    // A round never judged has no label: the reference counts only the rounds it got back.
    if (recorded === undefined) continue;
    const answer = before === undefined ? recorded : 'Unsolved';
    const pass = isPassed(answer, query.taskStatus?.get(round));
    if (pass === undefined) undecidedRounds.push(round);
    else if (pass === 'Passed') passed++;
    else if (pass === 'Failed') failed++;
    else {
      coins++;
      if (coin(seed, ['unsure', query.qid, round])) passed++;
      else failed++;
    }
  }
  return {
    pass:
      undecidedRounds.length === 0
        ? settle(query.qid, passed, failed, coins, 'verdicts', seed)
        : undefined,
    undecidedRounds,
  };
}
