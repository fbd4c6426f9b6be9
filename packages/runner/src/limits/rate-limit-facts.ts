/** What a model error says about rate limiting, read without knowing the adapter. */
export interface RateLimitFacts {
  readonly retryAfterMs: number | undefined;
}

/**
 * Reads a 429 from an adapter's error: `status` 429 (as the `PROVIDER_REQUEST_FAILED` `ProviderError`
 * of @skein/openai and most HTTP clients carry it) or a provider code `rate_limit_exceeded`, with `retryAfterMs`
 * when the provider sent `retry-after`. Duck-typed so any adapter's error works; undefined for
 * anything else.
 */
export function rateLimitFacts(error: unknown): RateLimitFacts | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const fields = error as { status?: unknown; providerCode?: unknown; retryAfterMs?: unknown };
  if (fields.status !== 429 && fields.providerCode !== 'rate_limit_exceeded') return undefined;
  const after = fields.retryAfterMs;
  return {
    retryAfterMs:
      typeof after === 'number' && Number.isFinite(after) && after >= 0 ? after : undefined,
  };
}
