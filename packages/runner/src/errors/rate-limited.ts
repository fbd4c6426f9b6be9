import { ProviderError } from '@skein/spec';

/** A `ProviderError` with code `RATE_LIMITED`, and its facts as fields (also in `details`). */
export type RateLimitedError = ProviderError<'RATE_LIMITED'> & {
  readonly model: string;
  readonly attempts: number;
};

/**
 * The provider kept answering 429 (rate limited) after every retry the run allows. Retryable:
 * the model call may be tried again later (the LLM node's own retry policy sees it).
 */
export function rateLimited(model: string, attempts: number, cause: unknown): RateLimitedError {
  return new ProviderError(
    'RATE_LIMITED',
    `Model ${model} was rate limited (HTTP 429) on ${attempts} attempts in a row`,
    { cause, retryable: true, facts: { model, attempts } },
  ) as RateLimitedError;
}
