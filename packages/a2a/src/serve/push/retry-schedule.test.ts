import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryDelay, retrySchedule } from './retry-schedule.js';

describe('the push retry schedule', () => {
  it('doubles from 1 s up to 30 s by default, five tries in all', () => {
    const schedule = retrySchedule(undefined);
    expect(schedule).toEqual({
      attempts: 5,
      initialDelayMs: 1000,
      maxDelayMs: 30_000,
      timeoutMs: 10_000,
    });
    expect([1, 2, 3, 4, 5, 6].map((retry) => retryDelay(schedule, retry, undefined))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000,
    ]);
  });

  it('waits at least what Retry-After asks, within the cap', () => {
    const schedule = retrySchedule({ initialDelayMs: 100, maxDelayMs: 5000 });
    expect(retryDelay(schedule, 1, 3000)).toBe(3000);
    expect(retryDelay(schedule, 1, 60_000)).toBe(5000);
    expect(retryDelay(schedule, 3, 10)).toBe(400);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Tue, 01 Dec 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Tue, 01 Dec 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('refuses options out of range at start', () => {
    for (const retry of [
      { attempts: 0 },
      { attempts: 1.5 },
      { initialDelayMs: -1 },
      { timeoutMs: 0 },
    ])
      expect(() => retrySchedule(retry)).toThrow(InvalidArgumentError);
  });
});
