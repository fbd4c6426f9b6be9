import type { CheckpointInfo } from '@skein/spec';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InspectorStore } from '../stores/inspector-store.js';
import type { LiveUpdate } from './live-update.js';
import { StoreFeed } from './store-feed.js';

const INTERVAL = 100;

function fakeStore() {
  const reads: string[] = [];
  let newest = 'c1';
  const store = {
    list: async (threadId: string) => {
      reads.push(threadId);
      return [{ id: newest, step: 1, status: 'RUNNING' } as unknown as CheckpointInfo];
    },
  } as unknown as InspectorStore;
  return {
    store,
    reads,
    advance: (id: string) => {
      newest = id;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('StoreFeed', () => {
  it('polls a thread once per interval however many streams follow it, and stops when they go', async () => {
    const { store, reads, advance } = fakeStore();
    const feed = new StoreFeed(store, INTERVAL);
    const seen: LiveUpdate[][] = Array.from({ length: 30 }, () => []);
    const stops = await Promise.all(
      seen.map((updates) => feed.subscribe('t', (update) => updates.push(update))),
    );
    expect(reads).toEqual(['t']);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(reads).toEqual(['t', 't']);
    advance('c2');
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(reads).toHaveLength(3);
    expect(seen.every((updates) => updates.length === 1)).toBe(true);
    expect(seen[29]![0]).toEqual({
      event: 'checkpoint',
      data: { threadId: 't', checkpointId: 'c2', step: 1, status: 'RUNNING' },
    });
    for (const stop of stops.slice(1)) stop();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(reads).toHaveLength(4);
    stops[0]!();
    stops[0]!();
    await vi.advanceTimersByTimeAsync(INTERVAL * 10);
    expect(reads).toHaveLength(4);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts a new poller for a thread followed again after all its streams went', async () => {
    const { store, reads, advance } = fakeStore();
    const feed = new StoreFeed(store, INTERVAL);
    (await feed.subscribe('t', () => undefined))();
    const updates: LiveUpdate[] = [];
    const stop = await feed.subscribe('t', (update) => updates.push(update));
    expect(reads).toEqual(['t', 't']);
    advance('c9');
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(updates.map((u) => u.data.checkpointId)).toEqual(['c9']);
    stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
