import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres, type TestPostgres } from '@skein/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueCommand, runWorkerCommand } from './worker-command.js';

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

const travel = {
  request: 'Plan a 4-day trip to Lisbon in spring.',
  traveller: 'Ada',
  tier: 'gold',
  currency: 'USD',
};

describe('worker and enqueue commands', () => {
  it('two workers run a thread enqueued from a third client, paused and then answered', async () => {
    const stop = new AbortController();
    const logs: string[] = [];
    const workers = [1, 2].map(() =>
      runWorkerCommand({
        store: pg.connectionString,
        signal: stop.signal,
        write: (text) => logs.push(text),
      }),
    );
    try {
      const out: string[] = [];
      const write = (text: string) => out.push(text);
      const never = new AbortController().signal;
      expect(
        await enqueueCommand({
          store: pg.connectionString,
          ...travel,
          threadId: 'trip-1',
          signal: never,
          write,
        }),
      ).toBe(0);
      expect(out.join('')).toContain('--resume trip-1');
      expect(
        await enqueueCommand({
          store: pg.connectionString,
          ...travel,
          resume: 'trip-1',
          answer: 'yes',
          signal: never,
          write,
        }),
      ).toBe(0);
      expect(out.join('')).toContain('completed');
      const store = new PostgresCheckpointStore({ connectionString: pg.connectionString });
      try {
        const stored = await store.load('trip-1');
        expect(stored?.state.status).toBe('COMPLETED');
        // The currency tool was added after the plan, by whichever worker ran it.
        expect(JSON.stringify(stored?.conversation.messages)).toContain('currency_convert');
      } finally {
        await store.close();
      }
    } finally {
      stop.abort();
      expect(await Promise.all(workers)).toEqual([0, 0]);
    }
    expect(logs.join('')).toContain('Skein worker');
  });
});
