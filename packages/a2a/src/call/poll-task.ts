import { setTimeout as sleep } from 'node:timers/promises';
import type { Task } from '@a2a-js/sdk';
import { isRunning } from './task-states.js';

export interface PollOptions {
  /** The first wait between two reads (ms); each next wait doubles, up to `maxIntervalMs`. */
  readonly intervalMs: number;
  readonly maxIntervalMs: number;
  readonly signal: AbortSignal;
}

/**
 * Reads the task again until it is no longer submitted or working, waiting between reads (the
 * wait ends early when the signal aborts). A task keeps its id, so the caller knows what to
 * cancel whenever this is interrupted.
 */
export async function pollTask(
  first: Task,
  getTask: (id: string) => Promise<Task>,
  options: PollOptions,
): Promise<Task> {
  let task = first;
  let wait = Math.min(options.intervalMs, options.maxIntervalMs);
  while (isRunning(task.status?.state)) {
    await sleep(wait, undefined, { signal: options.signal });
    task = await getTask(task.id);
    wait = Math.min(wait * 2, options.maxIntervalMs);
  }
  return task;
}
