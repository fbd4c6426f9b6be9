import type { ConversationLogEntry } from '@skein/conversation';
import type { CheckpointState, ThreadInfo, TokenUsage } from '@skein/spec';
import { trippedGuardrail } from './tripped-guardrail.js';
import type { ThreadSummary } from './types.js';

/** What the inspector reads of a stored state beyond the store contract's fields. */
export interface InspectedState extends CheckpointState {
  readonly createdAt?: string;
  readonly error?: {
    readonly code: string;
    readonly message: string;
    readonly nodeId?: string;
    /** `GUARDRAIL_TRIPPED`: which guardrail, at which stage, why. */
    readonly guardrail?: unknown;
  };
  readonly pending?: unknown;
  readonly output?: unknown;
  /** Set on branch and child threads (`ThreadState.parent` of @skein/core). */
  readonly parent?: { readonly threadId: string; readonly branchPath?: string };
  /** Set on a fork (`ThreadState.forkedFrom` of @skein/core). */
  readonly forkedFrom?: { readonly threadId: string; readonly checkpointId: string };
}

/** Tokens of every model call of the thread (usage entries of its log). */
function totalUsage(log: readonly ConversationLogEntry[]): TokenUsage {
  let promptTokens = 0;
  let completionTokens = 0;
  let totalTokens = 0;
  for (const entry of log)
    if (entry.op === 'usage') {
      promptTokens += entry.usage.promptTokens;
      completionTokens += entry.usage.completionTokens;
      totalTokens += entry.usage.totalTokens;
    }
  return { promptTokens, completionTokens, totalTokens };
}

export function threadSummary(
  info: ThreadInfo,
  state: InspectedState,
  log: readonly ConversationLogEntry[],
): ThreadSummary {
  const error = state.error;
  const guardrail = error && trippedGuardrail(error.guardrail);
  return {
    threadId: info.threadId,
    workflowId: info.workflowId,
    workflowVersion: info.workflowVersion,
    status: info.status,
    startedAt: state.createdAt ?? info.updatedAt,
    updatedAt: info.updatedAt,
    steps: info.step,
    tokens: totalUsage(log),
    ...(error === undefined
      ? {}
      : {
          lastError: {
            code: error.code,
            message: error.message,
            ...(error.nodeId === undefined ? {} : { nodeId: error.nodeId }),
            ...(guardrail ? { guardrail } : {}),
          },
        }),
    ...(typeof state.parent?.threadId === 'string'
      ? {
          parentThreadId: state.parent.threadId,
          ...(typeof state.parent.branchPath === 'string'
            ? { branchPath: state.parent.branchPath }
            : {}),
        }
      : {}),
    ...(typeof state.forkedFrom?.threadId === 'string'
      ? {
          forkedFrom: {
            threadId: state.forkedFrom.threadId,
            checkpointId: state.forkedFrom.checkpointId,
          },
        }
      : {}),
  };
}
