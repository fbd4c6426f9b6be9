import type { RetryPolicy } from '../workflow/types.js';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Calls `attempt` until it succeeds, the policy's attempts are used up, or the signal aborts,
 * waiting with exponential backoff in between. Returns the result and the attempts it took.
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy | undefined,
  signal: AbortSignal,
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void,
): Promise<T> {
  const maxAttempts = Math.max(1, policy?.maxAttempts ?? 3);
  const initial = policy?.initialDelayMs ?? 200;
  const max = policy?.maxDelayMs ?? 5_000;
  let lastError: unknown;
  for (let n = 1; n <= maxAttempts; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      lastError = error;
      if (n === maxAttempts) break;
      const delay = Math.min(max, initial * 2 ** (n - 1));
      onRetry?.(error, n, delay);
      await sleep(delay, signal);
    }
  }
  throw new RetryExhausted(lastError, maxAttempts);
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
