import type { BranchWait, ThreadState } from './thread-state.js';

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

/** A waiting branch's own wake: its sleep's time, or the deadline of its wait. */
function branchWake(threadId: string, wait: BranchWait): Wake | undefined {
  if (wait.reason === 'sleep' && wait.wakeAt)
    return { threadId, at: Date.parse(wait.wakeAt), timedOut: false, branch: wait.path };
  if ((wait.reason === 'user-input' || wait.reason === 'event') && wait.deadline)
    return { threadId, at: Date.parse(wait.deadline), timedOut: true, branch: wait.path };
  return undefined;
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
  if (pending.kind === 'sleep')
    return { threadId: state.threadId, at: Date.parse(pending.wakeAt), timedOut: false };
  if ((pending.kind === 'user-input' || pending.kind === 'event') && pending.deadline)
    return { threadId: state.threadId, at: Date.parse(pending.deadline), timedOut: true };
  if (pending.kind !== 'branches') return undefined;
  let first: Wake | undefined;
  for (const wait of pending.waiting) {
    const wake = branchWake(state.threadId, wait);
    if (wake && !Number.isNaN(wake.at) && (!first || wake.at < first.at)) first = wake;
  }
  return first;
}

/** What the engine resumes a thread with when `wake` (from `wakeOf` of its state) comes. */
export function wakeInput(state: ThreadState, wake: Wake): { input: unknown; timedOut?: true } {
  const pending = state.pending!;
  if (wake.branch !== undefined) {
    const wait = pending.kind === 'branches' && pending.waiting.find((w) => w.path === wake.branch);
    const input = wait && wait.reason === 'sleep' ? wait.wakeAt : null;
    return { input: { branch: wake.branch, input, ...(wake.timedOut ? { timedOut: true } : {}) } };
  }
  if (wake.timedOut) return { input: null, timedOut: true };
  return { input: pending.kind === 'sleep' ? pending.wakeAt : null };
}

/** The outside event a thread's state waits for, unclaimed (a WAIT_FOR_EVENT), if any. */
export function eventWaitOf(state: ThreadState): string | undefined {
  const pending = state.pending;
  if (state.status !== 'WAITING' || pending?.kind !== 'event' || pending.answer) return undefined;
  return pending.event;
}
