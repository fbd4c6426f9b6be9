import { InMemoryCheckpointStore } from '@skein/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from './index.js';
import { THREAD_LOCK_NAMESPACE } from './sql-names.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';
import { gatedWorkflow, gateTool, testEngine } from './test-support/test-engine.js';

// Threads waiting on a model (here a tool gate) must not each hold a database connection: a
// worker's connections stay a handful however many threads it runs.

const THREADS = 40;
let server: TestPostgres;
let admin: pg.Pool;

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.connectionString, max: 1 });
  admin.on('error', () => {});
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function scalar(sql: string, values: unknown[] = []): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(sql, values);
  return rows[0]!.n;
}

describe('a worker running many threads that wait', () => {
  it('holds every thread lock on one connection and stays within a few connections', async () => {
    const waiting: (() => void)[] = [];
    const called = new Set<string>();
    const engine = testEngine(new InMemoryCheckpointStore());
    engine.registerTool(
      gateTool((threadId) => {
        called.add(threadId);
        return new Promise((resolve) => waiting.push(() => resolve('open')));
      }),
    );
    engine.registerWorkflow(gatedWorkflow());
    const completed = new Set<string>();
    const worker = await createWorker({
      engine,
      connectionString: server.connectionString,
      concurrency: THREADS,
      handleSignals: false,
      log: () => {},
      onJob: (threadId, outcome) => {
        if (outcome.kind === 'ran' && outcome.result.status === 'COMPLETED')
          completed.add(threadId);
      },
    });
    try {
      for (let i = 0; i < THREADS; i++)
        await worker.enqueueThread('gated', 'go', { threadId: `w${i}` });
      await until(() => called.size === THREADS, 'every thread at its gate');
      const others = 'datname = current_database() and pid <> pg_backend_pid()';
      const connections = await scalar(
        `select count(*)::int as n from pg_stat_activity where ${others}`,
      );
      const lockHolders = await scalar(
        `select count(distinct pid)::int as n from pg_locks
          where locktype = 'advisory' and granted and classid = $1 and objsubid = 2`,
        [THREAD_LOCK_NAMESPACE],
      );
      const locks = await scalar(
        `select count(*)::int as n from pg_locks
          where locktype = 'advisory' and granted and classid = $1 and objsubid = 2`,
        [THREAD_LOCK_NAMESPACE],
      );
      expect(locks).toBe(THREADS);
      expect(lockHolders).toBe(1);
      // The queue's pool (10 at most) and the LISTEN connection; one per thread would be 40 more.
      expect(connections).toBeLessThanOrEqual(11);
      for (const open of waiting.splice(0)) open();
      await until(() => completed.size === THREADS, 'every thread completed');
    } finally {
      await worker.stop();
    }
  });
});
