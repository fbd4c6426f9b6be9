import { findNonJsonValue, InvalidArgumentError } from '@skein/spec';

/** The graphile-worker task of an outside event: any worker delivers it through its engine. */
export const SIGNAL_TASK = 'skein_signal';

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
