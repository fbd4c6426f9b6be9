import { afterEach, describe, expect, it, vi } from 'vitest';
import { IsoClock } from './iso-clock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('IsoClock', () => {
  it('gives the time as ISO text, formatted again once the millisecond moves', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 30, 8, 0, 0, 5) });
    const clock = new IsoClock();
    expect(clock.now()).toBe('2026-11-30T08:00:00.005Z');
    expect(clock.now()).toBe('2026-11-30T08:00:00.005Z');
    vi.advanceTimersByTime(1);
    expect(clock.now()).toBe('2026-11-30T08:00:00.006Z');
    vi.setSystemTime(Date.UTC(2025, 0, 1));
    expect(clock.now()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('keeps nothing between two clocks', () => {
    vi.useFakeTimers({ now: 0 });
    const first = new IsoClock();
    expect(first.now()).toBe('1970-01-01T00:00:00.000Z');
    vi.setSystemTime(1000);
    expect(new IsoClock().now()).toBe('1970-01-01T00:00:01.000Z');
    expect(first.now()).toBe('1970-01-01T00:00:01.000Z');
  });
});
