import type {
  PendingInteraction,
  ThreadContext,
  ThreadStatus,
  TrippedGuardrail,
} from '@skein/core';

/** A tool call waiting for approval: answer it by `toolCallId`. */
export interface ApprovalToAnswer {
  readonly toolCallId: string;
  readonly name: string;
  /** The arguments as the model sent them (JSON text). */
  readonly arguments: string;
}

/** What a PAUSED thread waits for, and so what `resume_thread` must be given. */
export type WaitingFor =
  | { readonly kind: 'user-input'; readonly prompt?: string }
  | { readonly kind: 'tool-approval'; readonly approvals: readonly ApprovalToAnswer[] }
  | {
      readonly kind: 'branches';
      /** `sleep` and `event` branches are woken by the engine, not answered. */
      readonly branches: readonly {
        readonly path: string;
        readonly reason: 'user-input' | 'tool-approval' | 'sleep' | 'event';
        readonly prompt?: string;
      }[];
    }
  /** WAITING: asleep until `wakeAt` (the thread wakes by itself). */
  | { readonly kind: 'sleep'; readonly wakeAt: string }
  /** WAITING for an outside event (`engine.signal(event, …)` or its webhook). */
  | { readonly kind: 'event'; readonly event: string; readonly deadline?: string };

/**
 * The structured content of every result about a thread (a workflow tool, `resume_thread`,
 * `get_thread`): the same shape whatever happened, since an END output can be any JSON value and
 * a paused thread must hand back its id.
 */
export interface ThreadReport {
  readonly threadId: string;
  readonly workflowId: string;
  readonly status: ThreadStatus;
  /** The END node's output (COMPLETED). */
  readonly output?: unknown;
  /**
   * Why it failed or was cancelled (FAILED, CANCELLED). A guardrail's trip (`GUARDRAIL_TRIPPED`)
   * names the guardrail, its stage and reason in `guardrail`: the thread never runs again.
   */
  readonly error?: {
    readonly code: string;
    readonly message: string;
    readonly nodeId?: string;
    readonly guardrail?: TrippedGuardrail;
  };
  /** PAUSED: what `resume_thread` must answer; WAITING: what the thread waits for. */
  readonly waitingFor?: WaitingFor;
}

function waitingFor(pending: PendingInteraction): WaitingFor {
  switch (pending.kind) {
    case 'user-input':
      return pending.prompt === undefined
        ? { kind: 'user-input' }
        : { kind: 'user-input', prompt: pending.prompt };
    case 'tool-approval': {
      const awaiting = new Set(pending.awaiting);
      return {
        kind: 'tool-approval',
        approvals: pending.calls
          .filter((call) => awaiting.has(call.id))
          .map((call) => ({ toolCallId: call.id, name: call.name, arguments: call.arguments })),
      };
    }
    case 'sleep':
      return { kind: 'sleep', wakeAt: pending.wakeAt };
    case 'event':
      return pending.deadline === undefined
        ? { kind: 'event', event: pending.event }
        : { kind: 'event', event: pending.event, deadline: pending.deadline };
    case 'branches':
      return {
        kind: 'branches',
        branches: pending.waiting.map((w) =>
          w.prompt === undefined
            ? { path: w.path, reason: w.reason }
            : { path: w.path, reason: w.reason, prompt: w.prompt },
        ),
      };
  }
}

/** The report of `thread` as it is now. */
export function threadReport(thread: ThreadContext): ThreadReport {
  const { state, status, threadId } = thread;
  const report: { -readonly [K in keyof ThreadReport]: ThreadReport[K] } = {
    threadId,
    workflowId: thread.workflow.id,
    status,
  };
  if (status === 'COMPLETED' && state.output !== undefined) report.output = state.output;
  if ((status === 'FAILED' || status === 'CANCELLED') && state.error) report.error = state.error;
  // A pause already claimed by a resume is no longer waiting for anyone.
  if ((status === 'PAUSED' || status === 'WAITING') && state.pending && !state.pending.answer)
    report.waitingFor = waitingFor(state.pending);
  return report;
}
