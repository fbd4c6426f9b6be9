import type { ThreadState } from './thread-state.js';

/** A stored wake: when the engine claims a thread's wait, and whether as a timeout. */
export interface Wake {
  readonly threadId: string;
  /** Epoch ms. */
  readonly at: number;
  /** A deadline (the wait times out) rather than a sleep's time. */
  readonly timedOut: boolean;
}

/**
 * The wake a thread's state holds, if any: a SLEEP's `wakeAt`, or the `deadline` of a pause or
 * an event wait — as long as nobody has claimed the wait yet.
 */
export function wakeOf(state: ThreadState): Wake | undefined {
  const pending = state.pending;
  if (!pending || pending.answer || (state.status !== 'PAUSED' && state.status !== 'WAITING'))
    return undefined;
  if (pending.kind === 'sleep')
    return { threadId: state.threadId, at: Date.parse(pending.wakeAt), timedOut: false };
  if ((pending.kind === 'user-input' || pending.kind === 'event') && pending.deadline)
    return { threadId: state.threadId, at: Date.parse(pending.deadline), timedOut: true };
  return undefined;
}

/** The outside event a thread's state waits for, unclaimed (a WAIT_FOR_EVENT), if any. */
export function eventWaitOf(state: ThreadState): string | undefined {
  const pending = state.pending;
  if (state.status !== 'WAITING' || pending?.kind !== 'event' || pending.answer) return undefined;
  return pending.event;
}
