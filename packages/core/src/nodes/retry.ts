import { SkeinError } from '@skein/spec';
import { abortableSleep } from '../util/abortable-sleep.js';
import type { RetryPolicy } from '../workflow/types.js';
import { checkRetryPolicy } from './check-retry-policy.js';

/**
 * Calls `attempt` until it succeeds, the policy's attempts are used up, an error that cannot
 * succeed on a retry comes back (`SkeinError.isRetryable` false: a 400, an invalid request), or
 * the signal aborts, waiting with exponential backoff in between. The policy is checked first
 * (`InvalidArgumentError` naming the field, `where` saying whose policy it is).
 */
export function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy | undefined,
  signal: AbortSignal | undefined,
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void,
  where = 'the call',
): Promise<T> {
  let policyValues: ReturnType<typeof checkRetryPolicy>;
  let first: Promise<T>;
  try {
    policyValues = checkRetryPolicy(policy, where);
  } catch (error) {
    return Promise.reject(error);
  }
  try {
    first = attempt(1);
  } catch (error) {
    first = Promise.reject(error);
  }
  // The first attempt is the only one almost every call makes: its promise is passed on with
  // one reaction, and the loop below starts only when it fails.
  return first.then(undefined, (error: unknown) =>
    retryAfter(error, attempt, policyValues, signal, onRetry),
  );
}

async function retryAfter<T>(
  firstError: unknown,
  attempt: (n: number) => Promise<T>,
  policy: ReturnType<typeof checkRetryPolicy>,
  signal: AbortSignal | undefined,
  onRetry: ((error: unknown, attempt: number, delayMs: number) => void) | undefined,
): Promise<T> {
  const { maxAttempts, initialDelayMs, maxDelayMs } = policy;
  let error = firstError;
  for (let n = 1; ; n++) {
    if (signal?.aborted) throw signal!.reason ?? error;
    if (n >= maxAttempts || !SkeinError.isRetryable(error)) throw new RetryExhausted(error, n);
    const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** (n - 1));
    onRetry?.(error, n, delay);
    await abortableSleep(delay, signal);
    try {
      return await attempt(n + 1);
    } catch (next) {
      error = next;
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
