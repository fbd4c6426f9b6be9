import type { SkeinError, TokenUsage } from '@skein/spec';
import type { ApprovalRequest } from '../events/event-map.js';
import { pauseKindOf } from '../pauses/pause-kinds.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { PendingInteraction, SerializedError, ThreadStatus } from '../thread/thread-state.js';
import { trippedGuardrail } from './guardrail-trip.js';

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
  /** A thread PAUSED for tool approvals: the calls waiting for a decision (see `thread:paused`). */
  readonly approvals?: readonly ApprovalRequest[];
  readonly lastCheckpointId?: string;
}

export interface ExecuteOptions {
  readonly signal?: AbortSignal;
  /** Upper bound on nodes run in this call: an integer from 1 to 2^53 - 1 (default 1,000). */
  readonly maxSteps?: number;
}

export function serializeError(error: SkeinError, nodeId?: string): SerializedError {
  const guardrail = trippedGuardrail(error);
  const serialized: SerializedError = nodeId
    ? { code: error.code, message: error.message, nodeId }
    : { code: error.code, message: error.message };
  return guardrail ? { ...serialized, guardrail } : serialized;
}

/** What `execute` and `resume` resolve to, read from the thread as it is now. */
export function resultOf(
  thread: ThreadContext,
  status: ThreadResult['status'],
  steps: number,
  error?: SkeinError,
): ThreadResult {
  const state = thread.state;
  const { threadId } = thread;
  const totalSteps = state.step;
  const approvals =
    status === 'PAUSED' && state.pending
      ? pauseKindOf(state.pending).details(state.pending).approvals
      : undefined;
  return {
    threadId,
    status,
    output: status === 'COMPLETED' ? state.output : undefined,
    error,
    steps,
    totalSteps,
    usage: thread.totalUsage(),
    pending: state.pending,
    ...(approvals ? { approvals } : {}),
    lastCheckpointId: thread.lastCheckpointId,
  };
}
