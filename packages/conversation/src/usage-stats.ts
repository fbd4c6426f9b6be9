import type { TokenUsage } from '@skein/spec';
import type { ConversationState } from './conversation-state.js';

export interface UsageStats {
  readonly total: TokenUsage;
  readonly currentBatch: TokenUsage;
  /** Usage of each batch in the current stack, by batch number. */
  readonly byBatch: readonly TokenUsage[];
}

// Copies, frozen: the state's counters keep changing and must not be changed from outside.
function frozenUsage(u: TokenUsage): TokenUsage {
  return Object.freeze({
    promptTokens: u.promptTokens,
    completionTokens: u.completionTokens,
    totalTokens: u.totalTokens,
  });
}

const NO_USAGE: TokenUsage = Object.freeze({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
});

/**
 * The whole thread's usage, frozen; one shared object while nothing is counted (most threads of
 * a fan-out never call a model, and their usage is read as each one ends).
 */
export function totalUsage(state: ConversationState): TokenUsage {
  const u = state.usage;
  if (u.promptTokens === 0 && u.completionTokens === 0 && u.totalTokens === 0) return NO_USAGE;
  return frozenUsage(u);
}

/** Token usage of the whole thread and of each batch in the current stack. */
export function usageStats(state: ConversationState): UsageStats {
  const byBatch = state.batches.map((b) => frozenUsage(b.usage));
  return { total: frozenUsage(state.usage), currentBatch: byBatch[byBatch.length - 1]!, byBatch };
}
