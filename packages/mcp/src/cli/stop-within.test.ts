import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stopWithin } from './stop-within.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('stopWithin', () => {
  it('gives up on a shutdown that never ends once the grace period has passed, not before', async () => {
    let outcome: string | undefined;
    void stopWithin(new Promise<void>(() => {}), 1_000).then((o) => {
      outcome = o;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe('timed-out');
  });

  it('says stopped when the shutdown ends in time, and leaves no timer behind', async () => {
    let stopped = () => {};
    const stopping = stopWithin(
      new Promise<void>((resolve) => {
        stopped = resolve;
      }),
      1_000,
    );
    expect(vi.getTimerCount()).toBe(1);
    stopped();
    await expect(stopping).resolves.toBe('stopped');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects as the shutdown does, and leaves no timer behind', async () => {
    await expect(stopWithin(Promise.reject(new Error('close failed')), 1_000)).rejects.toThrow(
      'close failed',
    );
    expect(vi.getTimerCount()).toBe(0);
  });
});
