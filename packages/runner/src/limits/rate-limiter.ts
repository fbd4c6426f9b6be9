import type { RateBudget } from '@skein/spec';
import { invalidOption } from '../errors/invalid-option.js';
import { MAX_TIMER_MS, sleep } from './sleep.js';
import { TokenBucket } from './token-bucket.js';

export interface RateLimits {
  /** Requests per minute across the run. */
  readonly rpm?: number;
  /** Tokens (prompt + completion) per minute across the run. */
  readonly tpm?: number;
  /**
   * Seconds of budget that may be spent at once after an idle spell (default 10): a bucket holds
   * `rpm * burstSeconds / 60` requests. Lower is smoother, higher starts faster.
   */
  readonly burstSeconds?: number;
}

/** What the limiter has seen, for the summary. */
export interface RateLimiterStats {
  readonly requests: number;
  /** 429 answers received. */
  readonly rateLimited: number;
  /** Time requests spent waiting for budget or a retry-after, summed over requests. */
  readonly waitedMs: number;
}

/** The smallest budget per minute whose wait for one unit (a request, a token) fits one timer. */
const MIN_PER_MINUTE = 60_000 / MAX_TIMER_MS;

/**
 * Throws `InvalidArgumentError` naming the option unless `value` is absent or a budget per minute
 * whose wait for one unit, 60,000 / value ms, fits a timer (2^31 - 1 ms): below about 2.8e-5 a
 * minute, the wait for one request would be longer than Node can wait at once.
 */
export function checkRate(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!(Number.isFinite(value) && value > 0))
    throw invalidOption(name, `must be a positive number, got ${String(value)}`);
  if (60_000 / value > MAX_TIMER_MS)
    throw invalidOption(
      name,
      `must be at least ${MIN_PER_MINUTE.toPrecision(3)} a minute (one every 2^31 - 1 ms, the longest a timer waits), got ${String(value)}`,
    );
}

function checkBurst(value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0))
    throw invalidOption('burstSeconds', `must be a positive number, got ${String(value)}`);
}

/**
 * Request and token budgets shared by every model call of a run (or of several runs in one
 * process). Waiters are served first come, first served; a 429 pauses everyone until its
 * retry-after has passed, since the provider's limit is per account, not per request. For a
 * budget shared by several processes, use another `RateBudget` (@skein/worker's
 * `PostgresRateBudget`).
 */
export class RateLimiter implements RateBudget {
  readonly #requests: TokenBucket | undefined;
  readonly #tokens: TokenBucket | undefined;
  #queue: Promise<void> = Promise.resolve();
  #pausedUntil = 0;
  #stats = { requests: 0, rateLimited: 0, waitedMs: 0 };

  constructor(limits: RateLimits = {}) {
    checkRate('rpm', limits.rpm);
    checkRate('tpm', limits.tpm);
    checkBurst(limits.burstSeconds);
    const burst = (limits.burstSeconds ?? 10) / 60;
    if (limits.rpm !== undefined)
      this.#requests = new TokenBucket(limits.rpm, Math.max(1, limits.rpm * burst));
    if (limits.tpm !== undefined)
      this.#tokens = new TokenBucket(limits.tpm, Math.max(1, limits.tpm * burst));
  }

  get stats(): RateLimiterStats {
    return { ...this.#stats };
  }

  /** Waits until one request of about `tokens` tokens fits both budgets, then takes it. */
  acquire(tokens: number, signal?: AbortSignal): Promise<void> {
    this.#stats.requests++;
    const turn = this.#queue.then(() => this.#wait(tokens, signal));
    // The next waiter queues behind this one whether it succeeds or is aborted.
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /** The request's real token count is known: settle the difference with its estimate. */
  settle(estimated: number, actual: number): void {
    this.#tokens?.adjust(estimated - actual);
  }

  /**
   * The provider said 429: nobody sends before `ms` from now. A pause longer than a timer holds
   * is waited in pieces; one that is not a positive number pauses nobody.
   */
  pauseFor(ms: number): void {
    this.#stats.rateLimited++;
    if (ms > 0) this.#pausedUntil = Math.max(this.#pausedUntil, performance.now() + ms);
  }

  async #wait(tokens: number, signal: AbortSignal | undefined): Promise<void> {
    const started = performance.now();
    for (;;) {
      const paused = this.#pausedUntil - performance.now();
      const wait = Math.max(
        paused,
        this.#requests?.waitFor(1) ?? 0,
        this.#tokens?.waitFor(tokens) ?? 0,
      );
      if (!(wait > 0)) break;
      // At most one timer's worth, then look again: a pause may have been extended meanwhile.
      await sleep(Math.min(wait, MAX_TIMER_MS), signal);
    }
    this.#requests?.take(1);
    this.#tokens?.take(tokens);
    this.#stats.waitedMs += performance.now() - started;
  }
}
