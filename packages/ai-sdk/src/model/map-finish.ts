import type { FinishReason, TokenUsage } from '@skein/spec';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

const REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_calls',
  error: 'error',
};

/**
 * A `finish` part's reason: `v3` gives `{ unified, raw }`, `v2` a string. As in @skein/openai, the
 * reason is advisory: calls that were assembled mean `tool_calls` whatever the provider said, and
 * `tool-calls` without any call is `other`.
 */
export function mapFinishReason(raw: unknown, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls) return 'tool_calls';
  const reason =
    typeof raw === 'object' && raw !== null ? (raw as { unified?: unknown }).unified : raw;
  const mapped = typeof reason === 'string' ? REASONS[reason] : undefined;
  return mapped === undefined || mapped === 'tool_calls' ? 'other' : mapped;
}

/**
 * A `finish` part's usage as Skein's: `v3` nests counts (`inputTokens.total`,
 * `inputTokens.cacheRead`, `outputTokens.reasoning`), `v2` has them flat (`inputTokens`,
 * `cachedInputTokens`, `reasoningTokens`). No input or output count at all: no usage. Cached
 * and reasoning counts are kept where they are above 0.
 */
export function mapUsage(raw: unknown): TokenUsage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const usage = raw as Record<string, unknown>;
  const nested = typeof usage.inputTokens === 'object' || typeof usage.outputTokens === 'object';
  const input = (usage.inputTokens ?? {}) as Record<string, unknown>;
  const output = (usage.outputTokens ?? {}) as Record<string, unknown>;
  const prompt = count(nested ? input.total : usage.inputTokens);
  const completion = count(nested ? output.total : usage.outputTokens);
  if (prompt === undefined && completion === undefined) return undefined;
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  const cached = count(nested ? input.cacheRead : usage.cachedInputTokens);
  const reasoning = count(nested ? output.reasoning : usage.reasoningTokens);
  const total = nested ? undefined : count(usage.totalTokens);
  return {
    promptTokens,
    completionTokens,
    totalTokens: total ?? promptTokens + completionTokens,
    // Only counts that say something: providers fill in 0 for "not reported" (openai-compatible).
    ...(cached ? { cachedPromptTokens: cached } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
