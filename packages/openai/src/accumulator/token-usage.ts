import type { TokenUsage } from '@skein/spec';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Maps an OpenAI `usage` object onto `TokenUsage`. A missing total is the sum of the parts; an
 * object with none of the three counts is not usage (returns `undefined`).
 */
export function toTokenUsage(raw: unknown): TokenUsage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const usage = raw as Record<string, unknown>;
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  const total = count(usage.total_tokens);
  if (prompt === undefined && completion === undefined && total === undefined) return undefined;
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  return { promptTokens, completionTokens, totalTokens: total ?? promptTokens + completionTokens };
}
