import { describe, expect, it } from 'vitest';
import { rateLimitFacts } from './rate-limit-facts.js';
import { RateLimiter } from './rate-limiter.js';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('refills at its rate up to its capacity, and debt is paid back before anyone goes', () => {
    let now = 0;
    const bucket = new TokenBucket(60, 10, () => now);
    expect(bucket.waitFor(1)).toBe(0);
    bucket.take(10);
    expect(bucket.waitFor(1)).toBe(1_000);
    now = 500;
    expect(bucket.level).toBeCloseTo(0.5);
    now = 60_000;
    expect(bucket.level).toBe(10);
    // A cost above the capacity waits only for a full bucket, then leaves a debt.
    bucket.take(25);
    expect(bucket.waitFor(1)).toBe(16_000);
    bucket.adjust(20);
    expect(bucket.level).toBe(5);
  });
});

describe('rateLimitFacts', () => {
  it('reads status 429 or the provider code, with retryAfterMs when sent', () => {
    expect(rateLimitFacts({ status: 429, retryAfterMs: 250 })).toEqual({ retryAfterMs: 250 });
    expect(rateLimitFacts({ providerCode: 'rate_limit_exceeded' })).toEqual({
      retryAfterMs: undefined,
    });
    expect(rateLimitFacts({ status: 500, retryAfterMs: 250 })).toBeUndefined();
    expect(rateLimitFacts(new Error('x'))).toBeUndefined();
    expect(rateLimitFacts({ status: 429, retryAfterMs: -1 })).toEqual({ retryAfterMs: undefined });
  });
});

describe('RateLimiter', () => {
  it('makes requests beyond the burst wait their turn, and pauses everyone after a 429', async () => {
    // 600 a minute with a burst of one request: the 2nd and 3rd wait about 100 ms each.
    const limiter = new RateLimiter({ rpm: 600, burstSeconds: 0.1 });
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => limiter.acquire(1).then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
    expect(limiter.stats).toMatchObject({ requests: 3, rateLimited: 0 });
    expect(limiter.stats.waitedMs).toBeGreaterThan(0);
    limiter.pauseFor(50);
    expect(limiter.stats.rateLimited).toBe(1);
  });

  it('refuses budgets that are not positive numbers', () => {
    expect(() => new RateLimiter({ rpm: 0 })).toThrow('rpm');
    expect(() => new RateLimiter({ tpm: Number.NaN })).toThrow('tpm');
  });

  it('gives up waiting when the signal aborts', async () => {
    const limiter = new RateLimiter({ rpm: 1, burstSeconds: 1 });
    await limiter.acquire(1);
    const controller = new AbortController();
    const waiting = limiter.acquire(1, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});
