import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { LeaseKeeper } from './lease-keeper.js';

describe('LeaseKeeper', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function keeper(owner: string, store: InMemoryCheckpointStore, clock: { now: number }) {
    return new LeaseKeeper({ store, owner, leaseMs: 900, now: () => clock.now });
  }

  it('renews a running thread’s lease every third of it, and stops when the last run ends', async () => {
    vi.useFakeTimers();
    const store = new InMemoryCheckpointStore();
    const clock = { now: 0 };
    const mine = keeper('mine', store, clock);
    await mine.take('t');
    await mine.take('t');
    const asked = vi.spyOn(store, 'acquireLease');
    clock.now = 800;
    await vi.advanceTimersByTimeAsync(300);
    expect(asked).toHaveBeenCalledTimes(1);
    // Renewed at 800 until 1,700: another process finds it alive at 1,600.
    expect(await store.acquireLease('t', { owner: 'other', expiresAt: 2_000, now: 1_600 })).toBe(
      false,
    );
    asked.mockClear();
    await mine.give('t');
    // One of two runs ended: still held, still renewed.
    expect(mine.holds('t')).toBe(true);
    await vi.advanceTimersByTimeAsync(300);
    expect(asked).toHaveBeenCalledTimes(1);
    await mine.give('t');
    expect(mine.holds('t')).toBe(false);
    asked.mockClear();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(asked).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
    // Given up: free for anyone.
    expect(await store.acquireLease('t', { owner: 'other', expiresAt: 2_000, now: 0 })).toBe(true);
  });

  it('refuses a thread another live owner holds, with THREAD_LEASED', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: 0 };
    await keeper('first', store, clock).take('t');
    const second = keeper('second', store, clock);
    await expect(second.take('t')).rejects.toMatchObject({ code: 'THREAD_LEASED', threadId: 't' });
    expect(second.holds('t')).toBe(false);
    clock.now = 901;
    await second.take('t');
    expect(second.holds('t')).toBe(true);
    await second.give('t');
  });

  it('keeps going when a renewal fails (the database is down)', async () => {
    vi.useFakeTimers();
    const store = new InMemoryCheckpointStore();
    const mine = keeper('mine', store, { now: 0 });
    await mine.take('t');
    const asked = vi.spyOn(store, 'acquireLease').mockRejectedValue(new Error('ECONNREFUSED'));
    await vi.advanceTimersByTimeAsync(600);
    expect(asked).toHaveBeenCalledTimes(2);
    expect(mine.holds('t')).toBe(true);
    asked.mockRestore();
    await mine.give('t');
  });
});
