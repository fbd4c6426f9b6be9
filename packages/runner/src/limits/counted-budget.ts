import type { RateBudget } from '@skein/spec';
import type { RateLimiterStats } from './rate-limiter.js';

/**
 * A budget passed through, counting what one run asked of it, for the run's summary. The budget
 * itself may be shared with other runs or processes (a `RateLimiter` of the process, a fleet-wide
 * budget that keeps no stats at all), so its own counts would not be this run's.
 */
export class CountedBudget implements RateBudget {
  readonly #budget: RateBudget;
  #stats = { requests: 0, rateLimited: 0, waitedMs: 0 };

  constructor(budget: RateBudget) {
    this.#budget = budget;
  }

  get stats(): RateLimiterStats {
    return { ...this.#stats };
  }

  async acquire(tokens: number, signal?: AbortSignal): Promise<void> {
    this.#stats.requests++;
    const started = performance.now();
    try {
      await this.#budget.acquire(tokens, signal);
    } finally {
      this.#stats.waitedMs += performance.now() - started;
    }
  }

  settle(estimatedTokens: number, actualTokens: number): void | Promise<void> {
    return this.#budget.settle(estimatedTokens, actualTokens);
  }

  pauseFor(ms: number): void | Promise<void> {
    this.#stats.rateLimited++;
    return this.#budget.pauseFor(ms);
  }
}
