import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AnswerStatus,
  computePassRate,
  type PassRateFigures,
  type PassRateOptions,
  type QueryVerdicts,
  type TaskStatus,
} from '@skein/toolbench';
import { RunnerError } from '../errors/runner-error.js';
import { SCORES_FILE } from '../output/run-files.js';
import { isTornLine, scanLines } from '../output/scan-lines.js';
import { problemOf, type ScoreLine } from './read-scores.js';
import type { JudgeDetails } from './scorers/judge-details.js';

export interface ToolBenchPassRateOptions extends PassRateOptions {
  /** The judge's name in `scores.jsonl` (default `toolbench-judge`). */
  readonly scorer?: string;
}

const ANSWERS: ReadonlySet<unknown> = new Set(['Solved', 'Unsolved', 'Unsure']);
const TASKS: ReadonlySet<unknown> = new Set(['Solvable', 'Unsolvable', 'Unsure']);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The verdicts a judge line recorded, or what is wrong with its details. */
function verdictsOf(line: ScoreLine): QueryVerdicts | string {
  const details = line.details as Partial<Record<keyof JudgeDetails, unknown>> | undefined;
  if (typeof details !== 'object' || details === null) return 'has no judge details';
  const { finalStep, finalAnswer, answerStatus, taskStatus } = details;
  if (typeof finalStep !== 'string' || typeof finalAnswer !== 'string')
    return 'has no finalStep and finalAnswer strings in its details';
  if (!Array.isArray(answerStatus) || !answerStatus.every((s) => ANSWERS.has(s)))
    return 'has no list of Solved / Unsolved / Unsure in details.answerStatus';
  if (
    taskStatus !== undefined &&
    !(Array.isArray(taskStatus) && taskStatus.every((s) => s === null || TASKS.has(s)))
  )
    return 'has a details.taskStatus that is not a list of Solvable / Unsolvable / Unsure or null';
  const answers = new Map<number, AnswerStatus>();
  (answerStatus as AnswerStatus[]).forEach((status, round) => {
    answers.set(round, status);
  });
  const tasks = new Map<number, TaskStatus>();
  (taskStatus as (TaskStatus | null)[] | undefined)?.forEach((status, round) => {
    if (status !== null) tasks.set(round, status);
  });
  return {
    qid: line.itemId,
    finalStep,
    finalAnswer,
    answerStatus: answers,
    ...(taskStatus === undefined ? {} : { taskStatus: tasks }),
  };
}

/**
 * The StableToolBench figures of a scored run, from the verdicts its judge (`toolBenchJudge`)
 * stored in `scores.jsonl`: each item is a query (its id the query id) and each judgement a
 * round, given to `computePassRate` of `@skein/toolbench`: the solve rate with its standard
 * deviation over rounds, exactly as the benchmark computes it, and the pass rate with its seeded
 * coins (undefined when the judge did not ask the task verdicts it needs). A torn last line is
 * ignored, as `skein compare` ignores it; a line that is not a score, or a judge line without
 * verdicts, is `RunnerError` (`SCORES_LINE_INVALID`).
 */
export async function toolBenchPassRate(
  folder: string,
  options: ToolBenchPassRateOptions = {},
): Promise<PassRateFigures> {
  const { scorer = 'toolbench-judge', ...passRate } = options;
  const file = join(folder, SCORES_FILE);
  if (!existsSync(file)) throw RunnerError.runFolder(file, 'does not exist: the run has no scores');
  const queries: QueryVerdicts[] = [];
  let lineNumber = 0;
  for await (const line of scanLines(file)) {
    lineNumber++;
    if (isTornLine(line)) continue;
    const value = parse(line.text);
    const problem = value === undefined ? 'is not JSON' : problemOf(value);
    if (problem !== undefined) throw RunnerError.scoresLine(file, lineNumber, problem);
    if ((value as ScoreLine).scorer !== scorer) continue;
    const verdicts = verdictsOf(value as ScoreLine);
    if (typeof verdicts === 'string')
      throw RunnerError.scoresLine(file, lineNumber, `a line of the judge "${scorer}" ${verdicts}`);
    queries.push(verdicts);
  }
  if (queries.length === 0)
    throw RunnerError.runFolder(file, `holds no score of the judge "${scorer}"`);
  return computePassRate(queries, passRate);
}
