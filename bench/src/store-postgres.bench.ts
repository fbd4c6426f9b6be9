import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointStore } from '@skein/core';
import type { Checkpoint } from '@skein/core/store-kit';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres } from '@skein/store-postgres/testing';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { type BenchRow, measure } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 14's store benchmark: what one checkpoint save costs on a thread at step 10 and at step
// 10,000, on @skein/store-postgres and, in the same run, @skein/store-sqlite. Each step adds two
// messages (a user question and an answer); an incremental store writes those two and a
// checkpoint row whatever the thread's length, so the two per-save costs should match.
// PostgreSQL is the embedded test server (fsync and synchronous_commit off); SQLite runs with
// synchronous 'normal' (WAL, no fsync per commit): the closest durability to it.

const SUITE = 'store-postgres';
const quick = process.env.BENCH_QUICK === '1';
const LONG = 10_000;
const SHORT = 10;
const SAVES = quick ? 50 : 200;
const RUNS = quick ? 3 : 5;

interface Cursor {
  readonly threadId: string;
  sequence: number;
}

function checkpoint(cursor: Cursor): Checkpoint {
  const { threadId } = cursor;
  const sequence = ++cursor.sequence;
  return {
    id: `${threadId}:${sequence}`,
    threadId,
    sequence,
    ...(sequence > 1 ? { parentId: `${threadId}:${sequence - 1}` } : {}),
    createdAt: '2026-11-23T10:00:00.000Z',
    state: {
      threadId,
      workflowId: 'bench',
      workflowVersion: '1',
      status: 'RUNNING',
      step: sequence,
      currentNodeId: 'think',
      variables: { n: sequence, notes: 'x'.repeat(200) },
      nodeOutputs: { think: { answer: `answer ${sequence}` } },
      dynamicTools: [],
      toolFailures: {},
      firedTriggers: [],
      createdAt: '2026-11-23T10:00:00.000Z',
    } as unknown as Checkpoint['state'],
    conversation: {
      version: 1,
      from: { messages: (sequence - 1) * 2, log: 0 },
      messages: [
        { role: 'user', content: `question ${sequence}: ${'lorem ipsum '.repeat(10)}` },
        { role: 'assistant', content: `answer ${sequence}: ${'dolor sit amet '.repeat(10)}` },
      ],
      log: [],
    },
  };
}

async function saveSteps(store: CheckpointStore, cursor: Cursor, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await store.save(checkpoint(cursor));
}

/** Per-save cost at step 10 (a fresh thread each run) and at step 10,000 (one long thread). */
async function measureStore(subject: string, store: CheckpointStore): Promise<BenchRow[]> {
  let fresh = 0;
  const short = await measure(
    { suite: SUITE, case: `save at step ${SHORT}`, subject, ops: SAVES },
    async () => {
      const cursor = { threadId: `short-${++fresh}`, sequence: 0 };
      await saveSteps(store, cursor, SHORT);
      return cursor;
    },
    (cursor) => saveSteps(store, cursor, SAVES),
    { warmup: 1, runs: RUNS },
  );
  const long: Cursor = { threadId: 'long', sequence: 0 };
  const t = performance.now();
  await saveSteps(store, long, LONG);
  const fillMs = performance.now() - t;
  const atLong = await measure(
    {
      suite: SUITE,
      case: `save at step ${LONG.toLocaleString('en')}`,
      subject,
      ops: SAVES,
      note: `thread grows ${SAVES} steps a run; first ${LONG} saves took ${(fillMs / LONG).toFixed(2)} ms each`,
    },
    () => long,
    (cursor) => saveSteps(store, cursor, SAVES),
    { warmup: 0, runs: RUNS },
  );
  return [{ ...short, note: 'a new thread each run, filled to step 10 first' }, atLong];
}

export const storePostgresSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const server = await startTestPostgres();
    const postgres = new PostgresCheckpointStore({ connectionString: server.connectionString });
    const dir = mkdtempSync(join(tmpdir(), 'skein-bench-sqlite-'));
    const sqlite = new SqliteCheckpointStore({
      filename: join(dir, 'threads.db'),
      synchronous: 'normal',
    });
    try {
      await postgres.migrate();
      return [
        ...(await measureStore('PostgresCheckpointStore (embedded PG 18)', postgres)),
        ...(await measureStore('SqliteCheckpointStore (WAL, normal)', sqlite)),
      ];
    } finally {
      await postgres.close();
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
  },
  summarize(rows) {
    const perSave = (subject: string, step: number) =>
      rows.find((r) => r.subject.startsWith(subject) && r.case.endsWith(step.toLocaleString('en')))
        ?.usPerOp ?? Number.NaN;
    return ['Postgres', 'Sqlite']
      .map((name) => {
        const short = perSave(name, SHORT) / 1000;
        const long = perSave(name, LONG) / 1000;
        return `${name}: ${short.toFixed(3)} ms per save at step ${SHORT}, ${long.toFixed(3)} ms at step ${LONG.toLocaleString('en')} (ratio ${(long / short).toFixed(2)}; an incremental store stays near 1, noise on a shared 2-core machine is ±30%)`;
      })
      .join('\n');
  },
};
