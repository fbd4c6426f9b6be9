import { findNonJsonValue, InvalidArgumentError } from '@skein/spec';

/** The graphile-worker task of an outside event: any worker delivers it through its engine. */
export const SIGNAL_TASK = 'skein_signal';

/**
 * Begins the key of the lock a signal job holds while it delivers (beside the thread locks, whose
 * keys are thread ids, which never hold U+001F): the reaper tells a live delivery from a dead one
 * by it.
 */
export const SIGNAL_LOCK_PREFIX = '\u001fsignal\u001f';

/** The lock key of the signal job delivering event `name`. */
export function signalLockKey(name: string): string {
  return SIGNAL_LOCK_PREFIX + name;
}

/** What a signal job carries: the event's name and its payload (JSON). */
export interface SignalJob {
  readonly name: string;
  readonly payload: unknown;
}

/**
 * The signal job as a worker reads it, or why it can never be delivered: a name that is not a
 * non-empty string, a payload no store can hold.
 */
export function parseSignalJob(value: unknown): SignalJob | InvalidArgumentError {
  const job = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof job.name !== 'string' || job.name === '')
    return new InvalidArgumentError('name', 'a signal needs a non-empty string name');
  const problem = findNonJsonValue(job.payload ?? null, 'payload');
  if (problem)
    return new InvalidArgumentError(
      'payload',
      `a signal's payload must be JSON: ${problem.path} is ${problem.reason}`,
    );
  return { name: job.name, payload: job.payload ?? null };
}
