import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointStore } from '@skein/core';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres } from '@skein/store-postgres/testing';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { postgresFloor, sqliteFloor } from './durable-throughput/floors.js';
import {
  modelStepsEngine,
  nodesPerThread,
  runThreadsAtOnce,
} from './durable-throughput/model-steps.js';
import { workerCurve } from './durable-throughput/workers.js';
import type { BenchRow } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 35's benchmark: many threads waiting on a model at once, each node checkpointed to a
// real database. START, then 10 x (LLM waiting 50 ms, VARIABLE, ROUTE), END: 32 checkpoints a
// thread; the ideal is 10 x 50 ms = 500 ms however many threads. On SQLite (WAL, synchronous
// FULL: every resolved save is on disk) and PostgreSQL (the embedded test server: fsync off, so
// its cost is its CPU); saturation (no model wait) against each database's own floor measured in
// this run; worker processes 1, 2 and 4 on one PostgreSQL; and one thread of 2,000 steps.
// LangGraph's SQLite and PostgreSQL savers are not installed in this workspace: no peer rows.

const SUITE = 'durable-throughput';
const quick = process.env.BENCH_QUICK === '1';
const STEPS = 10;
const DELAY_MS = 50;
const IDEAL_MS = STEPS * DELAY_MS;
const RUNS = quick ? 1 : 3;
const LONG_ROUNDS = 666; // 3 x 666 + 2 = 2,000 nodes
const WORKER_THREADS = quick ? 200 : 1_000;

type Open = (name: string) => Promise<{ store: CheckpointStore; close(): Promise<void> }>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function load(): string {
  return `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`;
}

function row(subject: string, caseName: string, ops: number, ms: number, note: string): BenchRow {
  return {
    suite: SUITE,
    case: caseName,
    subject,
    ops,
    totalMs: ms,
    usPerOp: (ms * 1000) / ops,
    note,
  };
}

/** `runs` fresh stores, `threads` at once; the median wall time and every run's. */
async function atOnce(open: Open, threads: number, delayMs: number, runs: number) {
  const times: number[] = [];
  for (let r = 0; r < runs + 1; r++) {
    const { store, close } = await open(`r${threads}_${delayMs}_${r}`);
    try {
      const ms = await runThreadsAtOnce(
        modelStepsEngine(store, STEPS, delayMs),
        'p',
        threads,
        STEPS,
      );
      if (r > 0) times.push(ms); // the first run warms the JIT
    } finally {
      await close();
    }
  }
  return { ms: median(times), all: times };
}

async function storeRows(subject: string, open: Open): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const threads of [200, 1_000]) {
    const { ms, all } = await atOnce(open, threads, DELAY_MS, RUNS);
    rows.push(
      row(
        subject,
        `${threads} threads x ${STEPS} steps x ${DELAY_MS} ms`,
        threads * nodesPerThread(STEPS),
        ms,
        `${(ms / IDEAL_MS).toFixed(2)}x ideal (${IDEAL_MS} ms); runs ${all.map((t) => t.toFixed(0)).join(', ')} ms; ${load()}`,
      ),
    );
  }
  const saturated = await atOnce(open, 200, 0, RUNS);
  const checkpoints = 200 * nodesPerThread(STEPS);
  rows.push(
    row(
      subject,
      'saturation: 200 threads x 10 steps, no model wait',
      checkpoints,
      saturated.ms,
      `${((checkpoints * 1000) / saturated.ms).toFixed(0)} durable node steps/s; ${load()}`,
    ),
  );
  const { store, close } = await open('long');
  try {
    const engine = modelStepsEngine(store, LONG_ROUNDS, 0);
    await runThreadsAtOnce(engine, 'warm-long', 1, LONG_ROUNDS);
    const ms = await runThreadsAtOnce(engine, 'long', 1, LONG_ROUNDS);
    const nodes = nodesPerThread(LONG_ROUNDS);
    rows.push(
      row(
        subject,
        `one thread, ${nodes.toLocaleString('en')} steps`,
        nodes,
        ms,
        `${(ms / nodes).toFixed(3)} ms per step; ${load()}`,
      ),
    );
  } finally {
    await close();
  }
  return rows;
}

function floorRows(
  subject: string,
  rows: number,
  floor: { single: number; batched: number },
): BenchRow[] {
  return [
    row(
      subject,
      'floor: single-row commits',
      rows,
      floor.single,
      `${((rows * 1000) / floor.single).toFixed(0)} commits/s, one row each`,
    ),
    row(
      subject,
      'floor: batched commits (200 rows)',
      rows,
      floor.batched,
      `${((rows * 1000) / floor.batched).toFixed(0)} rows/s`,
    ),
  ];
}

export const durableThroughputSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const rows: BenchRow[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'skein-bench-durable-'));
    const server = await startTestPostgres();
    try {
      const checkpoints = 200 * nodesPerThread(STEPS);
      rows.push(
        ...floorRows(
          'SQLite (WAL, synchronous FULL)',
          checkpoints,
          sqliteFloor(dir, checkpoints, 200),
        ),
      );
      rows.push(
        ...(await storeRows('SqliteCheckpointStore (WAL, synchronous FULL)', async (name) => {
          const store = new SqliteCheckpointStore({ filename: join(dir, `${name}.db`) });
          return { store, close: async () => store.close() };
        })),
      );
      rows.push(
        ...floorRows(
          'PostgreSQL 18 (embedded)',
          checkpoints,
          await postgresFloor(server.connectionString, checkpoints, 200),
        ),
      );
      rows.push(
        ...(await storeRows('PostgresCheckpointStore (embedded PG 18)', async (name) => {
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
      if (two)
        lines.push(
          `${name}: 200 threads ${(two.totalMs / IDEAL_MS).toFixed(2)}x ideal (goal <= ${goal}x: ${two.totalMs / IDEAL_MS <= goal ? 'met' : 'NOT met'}); 1,000 threads ${thousand ? (thousand.totalMs / IDEAL_MS).toFixed(2) : '?'}x.`,
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
