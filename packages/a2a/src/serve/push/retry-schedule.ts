import { InvalidArgumentError } from '@skein/spec';

/** How a push notification is tried again (option `pushNotifications.retry`). */
export interface A2APushRetryOptions {
  /** Tries in all, the first included (default 5; 1 never retries). */
  readonly attempts?: number;
  /** The wait before the first retry, in ms (default 1,000); each retry after waits twice as long. */
  readonly initialDelayMs?: number;
  /** The longest wait between two tries, in ms (default 30,000; a `Retry-After` is capped by it). */
  readonly maxDelayMs?: number;
  /** How long one POST may take, in ms (default 10,000): a receiver that hangs is a failed try. */
  readonly timeoutMs?: number;
}

export type RetrySchedule = Required<A2APushRetryOptions>;

const DEFAULTS: RetrySchedule = {
  attempts: 5,
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  timeoutMs: 10_000,
};

const LIMITS: Record<keyof RetrySchedule, readonly [number, number]> = {
  attempts: [1, 20],
  initialDelayMs: [0, 3_600_000],
  maxDelayMs: [0, 3_600_000],
  timeoutMs: [1, 600_000],
};

/** The options checked, defaults filled in: a mistake is the app's error at start. */
export function retrySchedule(options: A2APushRetryOptions | undefined): RetrySchedule {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new InvalidArgumentError('pushNotifications.retry', 'retry must be an object');
  const schedule = { ...DEFAULTS };
  for (const key of Object.keys(LIMITS) as (keyof RetrySchedule)[]) {
    const value = options?.[key] ?? DEFAULTS[key];
    const [min, max] = LIMITS[key];
    if (!Number.isInteger(value) || value < min || value > max)
      throw new InvalidArgumentError(
        `pushNotifications.retry.${key}`,
        `retry.${key} must be an integer from ${min} to ${max}, got ${String(value)}`,
      );
    schedule[key] = value;
  }
  return schedule;
}

/**
 * The wait before retry `retry` (1 for the first): exponential from `initialDelayMs`, at most
 * `maxDelayMs`. A receiver's `Retry-After` (429, 503) lengthens it, within the same cap.
 */
export function retryDelay(
  schedule: RetrySchedule,
  retry: number,
  retryAfterMs: number | undefined,
): number {
  const exponential = schedule.initialDelayMs * 2 ** (retry - 1);
  return Math.min(schedule.maxDelayMs, Math.max(exponential, retryAfterMs ?? 0));
}

/** A `Retry-After` header's wait in ms (seconds, or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
