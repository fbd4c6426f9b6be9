import type { SkeinError, TokenUsage } from '@skein/spec';
import type { ThreadContext } from '../thread/thread-context.js';
import type { PendingInteraction, SerializedError, ThreadStatus } from '../thread/thread-state.js';

export interface ThreadResult {
  readonly threadId: string;
  readonly status: Exclude<ThreadStatus, 'PENDING' | 'RUNNING'>;
  readonly output?: unknown;
  /**
   * Why the thread failed or was cancelled. When a node failed, it also carries the thread id,
   * node id and last checkpoint id (`NodeFailure`, see `isNodeFailure`).
   */
  readonly error?: SkeinError;
  /** Nodes run in this call. */
  readonly steps: number;
  /** Nodes run over the thread's whole life. */
  readonly totalSteps: number;
  readonly usage: TokenUsage;
  /** What a PAUSED thread waits for. */
  readonly pending?: PendingInteraction;
  readonly lastCheckpointId?: string;
}

export interface ExecuteOptions {
  readonly signal?: AbortSignal;
  /** Upper bound on nodes run in this call: an integer from 1 to 2^53 - 1 (default 1,000). */
  readonly maxSteps?: number;
}

export function serializeError(error: SkeinError, nodeId?: string): SerializedError {
  return nodeId
    ? { code: error.code, message: error.message, nodeId }
    : { code: error.code, message: error.message };
}

/**
 * What `execute` and `resume` resolve to, read from the thread as it is now, its fields in the
 * order callers see. Written out rather than with conditional spreads: every thread of a fan-out
 * ends here, and each `...(x ? { x } : {})` is one more object to allocate.
 */
export function resultOf(
  thread: ThreadContext,
  status: ThreadResult['status'],
  steps: number,
  error?: SkeinError,
): ThreadResult {
  const state = thread.state;
  const { threadId } = thread;
  const totalSteps = state.step;
  // Every field written, absent ones as undefined: one literal, so one hidden class. Adding
  // `pending` and `lastCheckpointId` afterwards gave results a class that lived only as long as
  // they did; a fan-out lets its branches' results go, and V8 dropped that class, with the code
  // built on it, at the next full GC (decision 0010).
  return {
    threadId,
    status,
    output: status === 'COMPLETED' ? state.output : undefined,
    error,
    steps,
    totalSteps,
    usage: thread.totalUsage(),
    pending: state.pending,
    lastCheckpointId: thread.lastCheckpointId,
  };
}
