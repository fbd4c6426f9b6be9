import { pauseKindOf } from '../pauses/pause-kinds.js';
import type { ThreadState } from './thread-state.js';

/** A stored wake: when the engine claims a thread's wait, and whether as a timeout. */
export interface Wake {
  readonly threadId: string;
  /** Epoch ms. */
  readonly at: number;
  /** A deadline (the wait times out) rather than a sleep's time. */
  readonly timedOut: boolean;
  /** The waiting branch it wakes (its path), when the thread waits on branches. */
  readonly branch?: string;
}

/**
 * The wake a thread's state holds, if any: a SLEEP's `wakeAt`, or the `deadline` of a pause or
 * an event wait — as long as nobody has claimed the wait yet. A thread whose branches wait has
 * the earliest of theirs. A branch's own state has none: it is woken through the top-level
 * thread, which resumes it with its node (decision 0023).
 */
export function wakeOf(state: ThreadState): Wake | undefined {
  const pending = state.pending;
  if (
    !pending ||
    pending.answer ||
    state.parent ||
    (state.status !== 'PAUSED' && state.status !== 'WAITING')
  )
    return undefined;
  const wake = pauseKindOf(pending).wake(pending);
  if (!wake) return undefined;
  const { at, timedOut, branch } = wake;
  return branch === undefined
    ? { threadId: state.threadId, at: Date.parse(at), timedOut }
    : { threadId: state.threadId, at: Date.parse(at), timedOut, branch };
}

/** What the engine resumes a thread with when `wake` (from `wakeOf` of its state) comes. */
export function wakeInput(state: ThreadState, wake: Wake): { input: unknown; timedOut?: true } {
  const pending = state.pending!;
  // A branch's timeout is its own: the thread is resumed with `{ branch, input, timedOut }`.
  if (wake.timedOut && wake.branch === undefined) return { input: null, timedOut: true };
  return { input: pauseKindOf(pending).wakeInput(pending, wake) };
}

/** The outside event a thread's state waits for, unclaimed (a WAIT_FOR_EVENT), if any. */
export function eventWaitOf(state: ThreadState): string | undefined {
  const pending = state.pending;
  if (state.status !== 'WAITING' || !pending || pending.answer) return undefined;
  return pauseKindOf(pending).signal(pending);
}
