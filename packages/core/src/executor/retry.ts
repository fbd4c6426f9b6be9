import { SkeinError } from '@skein/spec';
import type { RetryPolicy } from '../workflow/types.js';
import { abortableSleep } from './abortable-sleep.js';
import { checkRetryPolicy } from './check-retry-policy.js';

/**
 * Calls `attempt` until it succeeds, the policy's attempts are used up, an error that cannot
 * succeed on a retry comes back (`SkeinError.isRetryable` false: a 400, an invalid request), or
 * the signal aborts, waiting with exponential backoff in between. The policy is checked first
 * (`InvalidArgumentError` naming the field, `where` saying whose policy it is).
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy | undefined,
  signal: AbortSignal | undefined,
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void,
  where = 'the call',
): Promise<T> {
  const { maxAttempts, initialDelayMs, maxDelayMs } = checkRetryPolicy(policy, where);
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (n >= maxAttempts || !SkeinError.isRetryable(error)) throw new RetryExhausted(error, n);
      const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** (n - 1));
      onRetry?.(error, n, delay);
      await abortableSleep(delay, signal);
    }
  }
}

/** Internal: carries the last error and the attempt count out of `withRetry`. */
export class RetryExhausted extends Error {
  constructor(
    readonly lastError: unknown,
    readonly attempts: number,
  ) {
    super('retries exhausted');
  }
}
