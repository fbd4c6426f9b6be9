import type { ThreadResult } from '../run/thread-result.js';
import type { ThreadContext } from '../thread/thread-context.js';

/**
 * What `send` resolves with when its message waits in the thread's inbox for a turn this engine
 * does not run (decision 0036): another process runs the thread (`RUNNING`), or it waits for a
 * wake or an event (`WAITING`) or for approvals (`PAUSED`). The message is stored, in order,
 * and taken exactly once by the turn after; its answer comes as that thread's events.
 */
export interface PostedResult extends Omit<ThreadResult, 'status'> {
  readonly status: 'RUNNING' | 'WAITING' | 'PAUSED';
  /** The message's place in the thread's inbox, and the id it was posted under. */
  readonly posted: { readonly seq: number; readonly messageId: string };
}

/** What a send resolves with: the turn that took its message, or the message posted. */
export type SendResult = ThreadResult | PostedResult;

/** The posted result of a message `seq` for `thread` as it was last seen. */
export function postedResult(thread: ThreadContext, seq: number, messageId: string): PostedResult {
  const status = thread.status;
  return {
    threadId: thread.threadId,
    status: status === 'WAITING' || status === 'PAUSED' ? status : 'RUNNING',
    steps: 0,
    totalSteps: thread.state.step,
    usage: thread.totalUsage(),
    ...(thread.state.pending ? { pending: thread.state.pending } : {}),
    lastCheckpointId: thread.lastCheckpointId,
    posted: { seq, messageId },
  };
}
