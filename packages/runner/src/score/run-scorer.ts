import { findNonJsonValue, SkeinError } from '@skein/spec';
import { ScoreError } from '../errors/score-error.js';
import type { Scorer, ScoreValue } from './scorer.js';
import type { FinishedItem } from './scorer-input.js';

/** A scorer's time limit when none is given: a model-graded scorer may take a while. */
export const DEFAULT_SCORE_TIMEOUT_MS = 60_000;

/**
 * How one scorer's call on one item ended: its score, a `ScoreError` (always one of this copy of
 * the package, so `instanceof` tells them apart), or nothing (the run was stopped).
 */
export type ScorerOutcome = ScoreValue | ScoreError | undefined;

/** Where outcomes go, as they come: a score or an error of `scorer` for the item. */
export type RecordOutcome = (item: FinishedItem, scorer: string, outcome: ScorerOutcome) => void;

/** What is wrong with what a scorer returned, or undefined when it is a score. */
function problemOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'it returned no { score } object';
  const { score, reason, details } = value as Partial<Record<keyof ScoreValue, unknown>>;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1))
    return `its score is not a number from 0 to 1 (${String(score)})`;
  if (reason !== undefined && typeof reason !== 'string') return 'its reason is not a string';
  if (details !== undefined) {
    const bad = findNonJsonValue(details, 'details');
    if (bad) return `${bad.path} is ${bad.reason}`;
  }
  return undefined;
}

/** The value, checked: a score, or `SCORE_INVALID` saying what is wrong with it. */
function checked(scorer: string, itemId: string, value: unknown): ScorerOutcome {
  const problem = problemOf(value);
  if (problem === undefined) return value as ScoreValue;
  return new ScoreError('SCORE_INVALID', `Scorer ${scorer}: ${problem}`, { scorer, itemId });
}

function failure(scorer: string, itemId: string, error: unknown): ScoreError {
  if (error instanceof ScoreError) return error;
  // One from another copy of the package: made this copy's, its code and message kept.
  if (ScoreError.isInstance(error))
    return new ScoreError(
      error.code,
      error.message,
      { ...error.details, scorer },
      { cause: error },
    );
  const text = SkeinError.isInstance(error)
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
  return new ScoreError(
    'SCORER_FAILED',
    `Scorer ${scorer} threw: ${text}`,
    { scorer, itemId },
    { cause: error },
  );
}

interface Pending {
  readonly scorer: string;
  settled: boolean;
}

/**
 * Waits for the scorers of an item that returned promises, all started at once and so sharing
 * one time limit: each outcome is recorded as it comes; when `timeoutMs` runs out, each scorer
 * still running is recorded `SCORER_TIMEOUT` and the item's signal is aborted; when the run stops,
 * nothing more is recorded (the next run scores those again).
 */
function waitFor(
  item: FinishedItem,
  calls: readonly (readonly [string, Promise<ScorerOutcome>])[],
  timeoutMs: number,
  runSignal: AbortSignal | undefined,
  record: RecordOutcome,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const pending: Pending[] = calls.map(([scorer]) => ({ scorer, settled: false }));
    let left = pending.length;
    let over = false;
    const finish = (): void => {
      over = true;
      clearTimeout(timer);
      runSignal?.removeEventListener('abort', stop);
      item.release();
      resolve();
    };
    const stop = (): void => {
      item.abort(runSignal?.reason);
      finish();
    };
    const timer = setTimeout(() => {
      const late = pending.filter((p) => !p.settled).map((p) => p.scorer);
      item.abort(
        new ScoreError(
          'SCORER_TIMEOUT',
          `Scorers ${late.join(', ')} gave no score within ${timeoutMs} ms`,
          { itemId: item.itemId, timeoutMs },
          { retryable: true },
        ),
      );
      for (const scorer of late)
        record(
          item,
          scorer,
          new ScoreError(
            'SCORER_TIMEOUT',
            `Scorer ${scorer} gave no score within ${timeoutMs} ms`,
            { scorer, itemId: item.itemId, timeoutMs },
            { retryable: true },
          ),
        );
      finish();
    }, timeoutMs);
    calls.forEach(([scorer, call], i) => {
      void call.then((outcome) => {
        if (over) return;
        pending[i]!.settled = true;
        record(item, scorer, outcome);
        if (--left === 0) finish();
      });
    });
    if (runSignal?.aborted) stop();
    else runSignal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Calls each of `scorers` on the item, all at once, never throwing: each value is checked, what a
 * scorer throws is made a `ScoreError`, and each outcome goes to `record` as it comes. Scorers that
 * answer at once (code scorers) are recorded at once, with no timer and no promise: `scoreItem`
 * then returns nothing. Those that return a promise get `timeoutMs` together to settle
 * (`waitFor`), and none once the run's signal stops them.
 */
export function scoreItem(
  scorers: readonly Scorer[],
  item: FinishedItem,
  timeoutMs: number,
  runSignal: AbortSignal | undefined,
  record: RecordOutcome,
): undefined | Promise<void> {
  let calls: (readonly [string, Promise<ScorerOutcome>])[] | undefined;
  for (const scorer of scorers) {
    const name = scorer.name;
    let answer: ScoreValue | Promise<ScoreValue>;
    try {
      answer = scorer.score(item);
    } catch (error) {
      record(item, name, failure(name, item.itemId, error));
      continue;
    }
    if (typeof (answer as { then?: unknown } | null)?.then !== 'function') {
      record(item, name, checked(name, item.itemId, answer));
      continue;
    }
    const call = (answer as Promise<ScoreValue>).then(
      (value) => checked(name, item.itemId, value),
      (error: unknown) => failure(name, item.itemId, error),
    );
    calls ??= [];
    calls.push([name, call]);
  }
  if (!calls) {
    item.release();
    return undefined;
  }
  return waitFor(item, calls, timeoutMs, runSignal, record);
}
