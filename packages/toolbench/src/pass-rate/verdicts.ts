// Recorded judge verdicts: the pass-rate results file StableToolBench writes, read into a typed
// model (and the same model checked when a caller builds it).
//
// The file is `{qid: {query, tool_names, answer_steps, final_step, is_solved: {"0":
// "AnswerStatus.Solved", …}}}` (StableToolBench `toolbench/tooleval/eval_pass_rate.py` L108-118 at
// aa4ed9f: `is_solved[evaluate_time] = str(is_solved)`, dumped with int keys, so `"0"`, `"1"`, …).
// Files of the earlier evaluator (eval_pass_rate.py L163-180 at 45b9007) also hold `passed` and
// `failed`, the counts of rounds labelled passed and failed, and `task_solvable`, the task verdict
// of the last round to finish, as one string.

import { invalidVerdicts } from './invalid-verdicts.js';

/** The judge's verdict on an answer (`AnswerStatus`, rtl.py L16-19 at aa4ed9f). */
export type AnswerStatus = 'Solved' | 'Unsolved' | 'Unsure';

/** The judge's verdict on a task (`TaskStatus`, rtl.py L21-24 at aa4ed9f). */
export type TaskStatus = 'Solvable' | 'Unsolvable' | 'Unsure';

/** One query's recorded verdicts. Rounds are the reference's `evaluate_time`, 0-based. */
export interface QueryVerdicts {
  /** The query id (the key of the results file). */
  readonly qid: string;
  /** `final_step`: `"Final step: <Python repr of the last tool step>"`, or `""` with no tool step. */
  readonly finalStep: string;
  /**
   * The converted answer's `final_answer` (the raw Finish arguments, or `""`), when known: the
   * results file does not hold it, and the judge never sees an empty or given-up one (rtl.py
   * L67-71).
   */
  readonly finalAnswer?: string;
  /** `is_solved`: the answer verdict of each judged round. */
  readonly answerStatus: ReadonlyMap<number, AnswerStatus>;
  /**
   * The task verdict of each judged round (`check_task_solvable`), when recorded. The ToolBench
   * pass rate needs it for every round whose answer is not Solved; StableToolBench's current
   * evaluator no longer asks for it.
   */
  readonly taskStatus?: ReadonlyMap<number, TaskStatus>;
  /**
   * `passed` and `failed` of a file written by the earlier evaluator: its per-round labels, coins
   * already thrown. When given they are the pass rate's counts.
   */
  readonly recordedCounts?: { readonly passed: number; readonly failed: number };
}

const ANSWER_STATUSES: ReadonlyMap<string, AnswerStatus> = new Map([
  ['AnswerStatus.Solved', 'Solved'],
  ['AnswerStatus.Unsolved', 'Unsolved'],
  ['AnswerStatus.Unsure', 'Unsure'],
]);

const TASK_STATUSES: ReadonlyMap<string, TaskStatus> = new Map([
  ['TaskStatus.Solvable', 'Solvable'],
  ['TaskStatus.Unsolvable', 'Unsolvable'],
  ['TaskStatus.Unsure', 'Unsure'],
]);

// `int(k)` of a key Python wrote for an int (eval_pass_rate.py L127): no sign, no leading zero.
const ROUND_KEY = /^(0|[1-9][0-9]*)$/;

type Where = { readonly qid: string; readonly field: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value;
}

function path(qid: string, field?: string, key?: string): string {
  return `results[${JSON.stringify(qid)}]${field === undefined ? '' : `.${field}`}${
    key === undefined ? '' : `[${JSON.stringify(key)}]`
  }`;
}

/** The round of an `is_solved` / `task_solvable` key (`"0"`, `"1"`, …). */
function parseRound(key: string, where: Where): number {
  const round = ROUND_KEY.test(key) ? Number(key) : Number.NaN;
  if (!Number.isSafeInteger(round))
    throw invalidVerdicts(
      path(where.qid, where.field, key),
      'is not a round (a key "0", "1", … as Python writes an int)',
      where,
    );
  return round;
}

/** `"AnswerStatus.Solved"` → `Solved` (the strings `str(AnswerStatus.X)` gives). */
function parseAnswerStatus(text: unknown, where: Where & { readonly key: string }): AnswerStatus {
  const status = typeof text === 'string' ? ANSWER_STATUSES.get(text) : undefined;
  if (status === undefined)
    throw invalidVerdicts(
      path(where.qid, where.field, where.key),
      `is ${describe(text)}, not "AnswerStatus.Solved", "AnswerStatus.Unsolved" or "AnswerStatus.Unsure"`,
      where,
    );
  return status;
}

/** `"TaskStatus.Solvable"` → `Solvable` (the strings `str(TaskStatus.X)` gives). */
function parseTaskStatus(text: unknown, where: Where & { readonly key?: string }): TaskStatus {
  const status = typeof text === 'string' ? TASK_STATUSES.get(text) : undefined;
  if (status === undefined)
    throw invalidVerdicts(
      path(where.qid, where.field, where.key),
      `is ${describe(text)}, not "TaskStatus.Solvable", "TaskStatus.Unsolvable" or "TaskStatus.Unsure"`,
      where,
    );
  return status;
}

function parseRounds<S>(
  value: unknown,
  where: Where,
  parse: (text: unknown, where: Where & { readonly key: string }) => S,
): Map<number, S> {
  if (!isRecord(value))
    throw invalidVerdicts(
      path(where.qid, where.field),
      `is ${describe(value)}, not an object of rounds ({"0": …, "1": …})`,
      where,
    );
  const rounds = new Map<number, S>();
  for (const [key, text] of Object.entries(value))
    rounds.set(parseRound(key, where), parse(text, { ...where, key }));
  return rounds;
}

function parseCount(value: unknown, qid: string, field: 'passed' | 'failed'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw invalidVerdicts(path(qid, field), `is ${describe(value)}, not a count of rounds`, {
      qid,
      field,
    });
  return value;
}

function parseQuery(
  qid: string,
  entry: unknown,
  finalAnswers: Readonly<Record<string, string>>,
): QueryVerdicts {
  if (!isRecord(entry))
    throw invalidVerdicts(path(qid), `is ${describe(entry)}, not an object`, { qid });
  if (typeof entry.final_step !== 'string')
    throw invalidVerdicts(
      path(qid, 'final_step'),
      `is ${describe(entry.final_step)}, not a string`,
      {
        qid,
        field: 'final_step',
      },
    );
  if (!('is_solved' in entry))
    throw invalidVerdicts(path(qid, 'is_solved'), 'is missing', { qid, field: 'is_solved' });
  const answerStatus = parseRounds(entry.is_solved, { qid, field: 'is_solved' }, parseAnswerStatus);
  let taskStatus: Map<number, TaskStatus> | undefined;
  const task = entry.task_solvable;
  // One string is the earlier evaluator's last task verdict: its round is unknown, so it is only
  // checked (the counts beside it hold what it decided).
  if (typeof task === 'string') parseTaskStatus(task, { qid, field: 'task_solvable' });
  else if (task !== undefined)
    taskStatus = parseRounds(task, { qid, field: 'task_solvable' }, parseTaskStatus);
  let recordedCounts: QueryVerdicts['recordedCounts'];
  if ('passed' in entry || 'failed' in entry)
    recordedCounts = {
      passed: parseCount(entry.passed, qid, 'passed'),
      failed: parseCount(entry.failed, qid, 'failed'),
    };
  const finalAnswer = Object.hasOwn(finalAnswers, qid) ? finalAnswers[qid] : undefined;
  return {
    qid,
    finalStep: entry.final_step,
    ...(finalAnswer === undefined ? {} : { finalAnswer }),
    answerStatus,
    ...(taskStatus === undefined ? {} : { taskStatus }),
    ...(recordedCounts === undefined ? {} : { recordedCounts }),
  };
}

export interface ParsePassRateResultsOptions {
  /**
   * `final_answer` by query id, from the converted answers the results were judged from
   * (`{qid: {answer: {final_answer}}}`): lets the rule of rtl.py L67-71 (an empty or given-up
   * final answer is Unsolved without judging) be applied here too.
   */
  readonly finalAnswers?: Readonly<Record<string, string>>;
}

/**
 * Reads a StableToolBench pass-rate results file (the parsed JSON). Checks every query before
 * returning; a value that cannot be scored throws `InvalidArgumentError` naming the query
 * (`details.qid`) and the field (`details.field`), and nothing is returned.
 */
export function parsePassRateResults(
  results: unknown,
  options: ParsePassRateResultsOptions = {},
): QueryVerdicts[] {
  if (!isRecord(results))
    throw invalidVerdicts('results', `is ${describe(results)}, not an object keyed by query id`);
  const finalAnswers = options.finalAnswers ?? {};
  if (!isRecord(finalAnswers))
    throw invalidVerdicts('options.finalAnswers', 'is not an object keyed by query id');
  for (const [qid, text] of Object.entries(finalAnswers))
    if (typeof text !== 'string')
      throw invalidVerdicts(`options.finalAnswers[${JSON.stringify(qid)}]`, 'is not a string', {
        qid,
      });
  return Object.entries(results).map(([qid, entry]) => parseQuery(qid, entry, finalAnswers));
}

const ANSWER_VALUES: ReadonlySet<unknown> = new Set(ANSWER_STATUSES.values());
const TASK_VALUES: ReadonlySet<unknown> = new Set(TASK_STATUSES.values());

function checkRounds(
  rounds: unknown,
  at: string,
  qid: string,
  field: string,
  values: ReadonlySet<unknown>,
): void {
  if (!(rounds instanceof Map))
    throw invalidVerdicts(`${at}.${field}`, 'is not a Map of rounds', { qid, field });
  for (const [round, status] of rounds) {
    if (typeof round !== 'number' || !Number.isSafeInteger(round) || round < 0)
      throw invalidVerdicts(`${at}.${field}`, `has the key ${describe(round)}, not a round`, {
        qid,
        field,
      });
    if (!values.has(status))
      throw invalidVerdicts(
        `${at}.${field}`,
        `has ${describe(status)} for round ${round}, not one of ${[...values].join(', ')}`,
        { qid, field },
      );
  }
}

/** Checks verdicts a caller built (or `parsePassRateResults` returned) before any is scored. */
export function checkQueryVerdicts(queries: unknown): asserts queries is readonly QueryVerdicts[] {
  if (!Array.isArray(queries)) throw invalidVerdicts('queries', 'is not an array');
  const seen = new Set<string>();
  queries.forEach((query: unknown, i) => {
    const at = `queries[${i}]`;
    if (!isRecord(query)) throw invalidVerdicts(at, `is ${describe(query)}, not an object`);
    const { qid } = query;
    if (typeof qid !== 'string')
      throw invalidVerdicts(`${at}.qid`, `is ${describe(qid)}, not a string`, { field: 'qid' });
    if (seen.has(qid))
      throw invalidVerdicts(`${at}.qid`, `repeats the query id ${JSON.stringify(qid)}`, {
        qid,
        field: 'qid',
      });
    seen.add(qid);
    for (const field of ['finalStep', 'finalAnswer'] as const)
      if (typeof query[field] !== 'string' && (field === 'finalStep' || query[field] !== undefined))
        throw invalidVerdicts(`${at}.${field}`, `is ${describe(query[field])}, not a string`, {
          qid,
          field,
        });
    checkRounds(query.answerStatus, at, qid, 'answerStatus', ANSWER_VALUES);
    if (query.taskStatus !== undefined)
      checkRounds(query.taskStatus, at, qid, 'taskStatus', TASK_VALUES);
    const counts = query.recordedCounts;
    if (counts !== undefined) {
      const ok =
        isRecord(counts) &&
        [counts.passed, counts.failed].every(
          (n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0,
        );
      if (!ok)
        throw invalidVerdicts(
          `${at}.recordedCounts`,
          'is not { passed, failed } counts of rounds',
          { qid, field: 'recordedCounts' },
        );
    }
  });
}
