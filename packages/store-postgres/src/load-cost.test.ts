import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { makeFork } from './test-support/make-fork.js';
import { startTestPostgres, type TestPostgres } from './testing/index.js';

// A load reads the thread's own checkpoint rows, whatever else the table holds. A worker asks for
// every thread it starts (it may be a takeover), so a load that walked the whole table grew
// slower with every thread the database had ever run (found at 28k checkpoints: 5 ms per load).

const THREADS = 40;
const CHECKPOINTS = 50;

let server: TestPostgres;
let pool: pg.Pool;
let store: PostgresCheckpointStore;
beforeAll(async () => {
  server = await startTestPostgres();
  pool = new pg.Pool({ connectionString: server.connectionString });
  store = new PostgresCheckpointStore({ pool, schema: 'load_cost' });
  for (let t = 0; t < THREADS; t++)
    for (let sequence = 1; sequence <= CHECKPOINTS; sequence++)
      await store.save(makeCheckpoint(`t${t}`, sequence, { messages: 0, log: 0 }));
  // Statistics as a long-running database has them.
  await pool.query('ANALYZE load_cost.checkpoints, load_cost.threads');
}, 120_000);
afterAll(async () => {
  await store?.close();
  await pool?.end();
  await server?.stop();
});

/** Checkpoint rows the server read (sequential and through indexes) while `work` ran. */
async function checkpointRowsRead(work: () => Promise<unknown>): Promise<number> {
  const read = async () => {
    // The counters reach the statistics system at the end of each transaction; make them current.
    await pool.query('SELECT pg_stat_force_next_flush()');
    const { rows } = await pool.query<{ n: string }>(
      `SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n
       FROM pg_stat_user_tables WHERE schemaname = 'load_cost' AND relname = 'checkpoints'`,
    );
    return Number(rows[0]!.n);
  };
  const before = await read();
  await work();
  return (await read()) - before;
}

describe('loading a thread', () => {
  it('reads no checkpoint row for a thread that has none', async () => {
    let loaded: unknown = 'not run';
    const rows = await checkpointRowsRead(async () => {
      loaded = await store.load('never-ran');
    });
    expect(loaded).toBeUndefined();
    expect(rows).toBe(0);
  });

  it("reads the thread's latest checkpoint row only, for the oldest thread too", async () => {
    let loaded: { checkpoint: { sequence: number } } | undefined;
    const rows = await checkpointRowsRead(async () => {
      loaded = await store.load('t0');
    });
    expect(loaded?.checkpoint.sequence).toBe(CHECKPOINTS);
    expect(rows).toBeLessThanOrEqual(1);
  });

  it('reads only the thread’s rows for a named checkpoint', async () => {
    let loaded: { checkpoint: { sequence: number } } | undefined;
    const rows = await checkpointRowsRead(async () => {
      loaded = await store.load('t0', 't0:7');
    });
    expect(loaded?.checkpoint.sequence).toBe(7);
    expect(rows).toBeLessThanOrEqual(CHECKPOINTS);
  });

  it('reads only the checkpoint row of a fork of a fork, none of the threads it shares messages with', async () => {
    const said = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ role: 'user', content: `${i}` }));
    await store.save(makeCheckpoint('long', 1, { messages: 0, log: 0 }, said(100)));
    const origin = (threadId: string) => ({ threadId, checkpointId: `${threadId}:1` });
    await store.save(makeFork('fork', origin('long'), { messages: 100, log: 0 }, said(10)));
    await store.save(makeFork('fork2', origin('fork'), { messages: 110, log: 0 }, said(1)));
    let messages = 0;
    const rows = await checkpointRowsRead(async () => {
      messages = (await store.load('fork2'))!.conversation.messages.length;
    });
    expect(messages).toBe(111);
    expect(rows).toBeLessThanOrEqual(1);
  });

  it("prunes the oldest thread reading only that thread's rows", async () => {
    let removed = 0;
    const rows = await checkpointRowsRead(async () => {
      removed = await store.prune('t1', { keepLast: 10 });
    });
    expect(removed).toBe(CHECKPOINTS - 10);
    // Finding the tenth newest, then deleting the older ones: a few passes over its 50 rows.
    expect(rows).toBeLessThanOrEqual(3 * CHECKPOINTS);
  });
});
