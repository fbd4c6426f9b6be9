import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryCheckpointStore } from '@skein/core';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres } from '@skein/store-postgres/testing';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { postgresFloor, sqliteFloor } from './durable-throughput/floors.js';
import { nodesPerThread } from './durable-throughput/model-steps.js';
import { openFloorDatabase } from './durable-throughput/sqlite-drivers.js';
import {
  DELAY_MS,
  floorRows,
  IDEAL_MS,
  langGraphRows,
  load,
  row,
  STEPS,
  storeRows,
} from './durable-throughput/store-rows.js';
import { workerCurve } from './durable-throughput/workers.js';
import type { BenchRow } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 35's benchmark: many threads waiting on a model at once, each node checkpointed to a
// real database. START, then 10 x (LLM waiting 50 ms, VARIABLE, ROUTE), END: 32 checkpoints a
// thread; the ideal is 10 x 50 ms = 500 ms however many threads. On SQLite (WAL, synchronous
// FULL: every resolved save is on disk; the default driver, better-sqlite3 where installed, as
// here: `durable-sqlite` compares the drivers) and PostgreSQL (the embedded test server: fsync
// off, so its cost is its CPU); saturation (no model wait) against each database's own floor
// measured in this run; worker processes 1, 2 and 4 on one PostgreSQL; and one thread of 2,000
// steps. Beside them, in the same run, what the engine alone costs (the in-memory store) and the
// same threads in LangGraph on its in-memory checkpointer (MemorySaver): its SQLite and PostgreSQL
// savers are not installed in this workspace, so the peer row compares with the in-memory one.

const SUITE = 'durable-throughput';
const WORKER_THREADS = process.env.BENCH_QUICK === '1' ? 200 : 1_000;

export const durableThroughputSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const rows: BenchRow[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'skein-bench-durable-'));
    const server = await startTestPostgres();
    try {
      rows.push(
        ...(await storeRows(SUITE, 'InMemoryCheckpointStore (the engine alone)', async () => ({
          store: new InMemoryCheckpointStore(),
          close: async () => {},
        }))),
      );
      rows.push(...(await langGraphRows(SUITE, 'LangGraph 1.7 (MemorySaver)')));
      const checkpoints = 200 * nodesPerThread(STEPS);
      rows.push(
        ...floorRows(
          SUITE,
          'SQLite (WAL, synchronous FULL)',
          checkpoints,
          sqliteFloor(openFloorDatabase('better-sqlite3', dir), checkpoints, 200),
        ),
      );
      rows.push(
        ...(await storeRows(
          SUITE,
          'SqliteCheckpointStore (WAL, synchronous FULL)',
          async (name) => {
            const store = new SqliteCheckpointStore({ filename: join(dir, `${name}.db`) });
            return { store, close: async () => store.close() };
          },
        )),
      );
      rows.push(
        ...floorRows(
          SUITE,
          'PostgreSQL 18 (embedded)',
          checkpoints,
          await postgresFloor(server.connectionString, checkpoints, 200),
        ),
      );
      rows.push(
        ...(await storeRows(SUITE, 'PostgresCheckpointStore (embedded PG 18)', async (name) => {
          const store = new PostgresCheckpointStore({
            connectionString: server.connectionString,
            schema: `s_${name}`,
          });
          await store.migrate();
          return { store, close: () => store.close() };
        })),
      );
      const curve = await workerCurve(
        await server.createDatabase(),
        WORKER_THREADS,
        STEPS,
        DELAY_MS,
        [1, 2, 4],
      );
      for (const [processes, ms] of curve)
        rows.push(
          row(
            SUITE,
            `@skein/worker, ${processes} process${processes > 1 ? 'es' : ''} (default concurrency)`,
            `${WORKER_THREADS} threads x ${STEPS} steps x ${DELAY_MS} ms`,
            WORKER_THREADS * nodesPerThread(STEPS),
            ms,
            `${((WORKER_THREADS * 1000) / ms).toFixed(0)} threads/s; ${load()}`,
          ),
        );
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
  summarize(rows) {
    const find = (subject: string, caseStart: string) =>
      rows.find((r) => r.subject.startsWith(subject) && r.case.startsWith(caseStart));
    const lines: string[] = [];
    for (const [name, subject] of [
      ['In-memory store', 'InMemoryCheckpointStore'],
      ['LangGraph (MemorySaver)', 'LangGraph'],
    ] as const) {
      const two = find(subject, '200 threads');
      const thousand = find(subject, '1000 threads');
      if (two && thousand)
        lines.push(
          `${name}: 200 threads ${(two.totalMs / IDEAL_MS).toFixed(2)}x ideal; 1,000 threads ${(thousand.totalMs / IDEAL_MS).toFixed(2)}x.`,
        );
    }
    for (const [name, store, db, goal] of [
      ['SQLite', 'SqliteCheckpointStore', 'SQLite', 2],
      ['PostgreSQL', 'PostgresCheckpointStore', 'PostgreSQL', 3],
    ] as const) {
      const two = find(store, '200 threads');
      const thousand = find(store, '1000 threads');
      const saturated = find(store, 'saturation');
      const batched = find(db, 'floor: batched');
      const single = find(db, 'floor: single');
      const long = find(store, 'one thread');
      if (two && thousand)
        lines.push(
          `${name}: 200 threads ${(two.totalMs / IDEAL_MS).toFixed(2)}x ideal; 1,000 threads ${(thousand.totalMs / IDEAL_MS).toFixed(2)}x (goal <= ${goal}x: ${thousand.totalMs / IDEAL_MS <= goal ? 'met' : 'NOT met'}).`,
        );
      if (saturated && batched && single)
        lines.push(
          `${name}: saturation ${((saturated.ops * 1000) / saturated.totalMs).toFixed(0)} durable steps/s; the database commits ${((single.ops * 1000) / single.totalMs).toFixed(0)} single rows/s and ${((batched.ops * 1000) / batched.totalMs).toFixed(0)} batched rows/s: ${(saturated.totalMs / batched.totalMs).toFixed(1)}x the batched floor's time.`,
        );
      if (long)
        lines.push(`${name}: one thread ${(long.totalMs / long.ops).toFixed(3)} ms per step.`);
    }
    const one = rows.find((r) => r.subject.includes(', 1 process'));
    for (const n of [2, 4]) {
      const more = rows.find((r) => r.subject.includes(`, ${n} processes`));
      if (one && more)
        lines.push(
          `Workers: ${n} processes vs 1: ${(one.totalMs / more.totalMs).toFixed(2)}x the throughput.`,
        );
    }
    return lines.join('\n');
  },
};
