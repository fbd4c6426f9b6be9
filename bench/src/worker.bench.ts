import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestPostgres } from '@skein/store-postgres/testing';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { createWorkerClient, type WorkerClient } from '@skein/worker';
import type { BenchRow } from './harness.js';
import type { BenchSuite } from './suite.js';
import { NODES_PER_THREAD, twentyStepEngine } from './worker/twenty-steps.js';

// Issue 14's benchmark: the engine suite's 20-step workflow (21 nodes, scripted model, a
// checkpoint per node) run by 1 and 2 @skein/worker processes through graphile-worker on an
// embedded PostgreSQL 18 (checkpoints in @skein/store-postgres, every engine event sent over
// NOTIFY), against the same workflow in this process on the SQLite store; and the latency from
// enqueueThread to the first node starting, as a subscriber in this process sees it.

const SUITE = 'worker';
const quick = process.env.BENCH_QUICK === '1';
const THREADS = quick ? 100 : 400;
const CONCURRENCY = 8;
const LATENCY_SAMPLES = quick ? 30 : 100;
const workerScript = fileURLToPath(new URL('./worker/worker-process.ts', import.meta.url));

/** When each latency thread's first node started, as its worker process printed it. */
const firstNodeAt = new Map<string, number>();

function startWorker(connectionString: string, events: 'all' | 'end'): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', workerScript, connectionString, String(CONCURRENCY), events],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench worker exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      for (const [, id, at] of text.matchAll(/started (\S+) ([\d.]+)/g))
        firstNodeAt.set(id!, Number(at));
      if (text.includes('ready')) resolve(child);
    });
  });
}

function stopWorker(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Enqueues `count` threads and resolves with the ms until the last one completed. */
async function runThreads(client: WorkerClient, prefix: string, count: number): Promise<number> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  let left = count;
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  const unsubscribe = await Promise.all(
    ids.map((id) =>
      client.subscribe(id, (event) => {
        if (event.event === 'thread:completed' && --left === 0) done();
      }),
    ),
  );
  const started = performance.now();
  await Promise.all(ids.map((id) => client.enqueueThread('twenty', undefined, { threadId: id })));
  await all;
  const ms = performance.now() - started;
  await Promise.all(unsubscribe.map((stop) => stop()));
  return ms;
}

/**
 * One thread at a time: ms from calling enqueueThread to its first node starting in the worker
 * (both clocks are the machine's: performance.timeOrigin + now()), and to this process receiving
 * that node:started event.
 */
async function enqueueLatencies(
  client: WorkerClient,
  samples: number,
): Promise<{ started: number[]; seen: number[] }> {
  const latencies: number[] = [];
  const startedAt: number[] = [];
  for (let i = 0; i < samples; i++) {
    const id = `latency-${i}`;
    let started = 0;
    let seen: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      seen = resolve;
    });
    const unsubscribe = await client.subscribe(id, (event) => {
      if (event.event === 'node:started') seen();
    });
    let completed: () => void = () => {};
    const end = new Promise<void>((resolve) => {
      completed = resolve;
    });
    const stopEnd = await client.subscribe(id, (event) => {
      if (event.event === 'thread:completed') completed();
    });
    started = performance.now();
    await client.enqueueThread('twenty', undefined, { threadId: id });
    await first;
    latencies.push(performance.now() - started);
    await end;
    const at = firstNodeAt.get(id);
    if (at !== undefined) startedAt.push(at - performance.timeOrigin - started);
    await unsubscribe();
    await stopEnd();
  }
  const sort = (values: number[]) => values.sort((a, b) => a - b);
  return { started: sort(startedAt), seen: sort(latencies) };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

async function inProcessSqlite(count: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'skein-worker-bench-'));
  const store = new SqliteCheckpointStore({ filename: join(dir, 'threads.db') });
  try {
    const engine = twentyStepEngine(store);
    // Same concurrency as one worker process: CONCURRENCY threads at a time.
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          const id = `sqlite-${next++}`;
          const { result } = await engine.run('twenty', { threadId: id });
          if (result.status !== 'COMPLETED') throw new Error(`thread ${id} ${result.status}`);
        }
      }),
    );
    return performance.now() - started;
  } finally {
    store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function row(subject: string, caseName: string, count: number, ms: number, note: string): BenchRow {
  const nodes = count * NODES_PER_THREAD;
  return {
    suite: SUITE,
    case: caseName,
    subject,
    ops: nodes,
    totalMs: ms,
    usPerOp: (ms * 1000) / nodes,
    note: `${((count * 1000) / ms).toFixed(0)} threads/s; ${note}`,
  };
}

export const workerSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const rows: BenchRow[] = [];
    const caseName = `${THREADS} threads x 21 nodes`;
    // Warm-up, then the measured run.
    await inProcessSqlite(50);
    rows.push(
      row(
        'in-process SkeinEngine, SQLite store',
        caseName,
        THREADS,
        await inProcessSqlite(THREADS),
        `${CONCURRENCY} threads at a time`,
      ),
    );
    const pg = await startTestPostgres();
    const client = createWorkerClient({ connectionString: pg.connectionString });
    const children: ChildProcess[] = [];
    try {
      await client.migrate();
      // Only thread:completed sent: what the NOTIFY of every event costs.
      children.push(await startWorker(pg.connectionString, 'end'));
      await runThreads(client, 'warm-end', 50);
      rows.push(
        row(
          '@skein/worker, 1 process, only thread:completed sent',
          caseName,
          THREADS,
          await runThreads(client, 'run-end', THREADS),
          `concurrency ${CONCURRENCY}, Postgres store`,
        ),
      );
      await stopWorker(children.pop()!);
      for (const processes of [1, 2]) {
        while (children.length < processes)
          children.push(await startWorker(pg.connectionString, 'all'));
        await runThreads(client, `warm-${processes}`, 50);
        const ms = await runThreads(client, `run-${processes}`, THREADS);
        rows.push(
          row(
            `@skein/worker, ${processes} process${processes > 1 ? 'es' : ''}`,
            caseName,
            THREADS,
            ms,
            `concurrency ${CONCURRENCY} per process, Postgres store, all events over NOTIFY`,
          ),
        );
      }
      while (children.length > 1) await stopWorker(children.pop()!);
      const { started, seen } = await enqueueLatencies(client, LATENCY_SAMPLES);
      for (const [what, latencies] of [
        ['first node starts in the worker', started],
        ['its node:started reaches this process', seen],
      ] as const) {
        const p50 = percentile(latencies, 50);
        rows.push({
          suite: SUITE,
          case: `enqueueThread -> ${what}`,
          subject: '@skein/worker, 1 idle process',
          ops: 1,
          totalMs: p50,
          usPerOp: p50 * 1000,
          note: `p50 ${p50.toFixed(1)} ms, p90 ${percentile(latencies, 90).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms, ${latencies.length} threads one at a time`,
        });
      }
    } finally {
      for (const child of children) await stopWorker(child);
      await client.close();
      await pg.stop();
    }
    return rows;
  },
  summarize(rows) {
    const sqlite = rows.find((r) => r.subject.startsWith('in-process'));
    const one = rows.find((r) => r.subject.endsWith('1 process'));
    const quiet = rows.find((r) => r.subject.includes('only thread:completed'));
    const two = rows.find((r) => r.subject.endsWith('2 processes'));
    const latency = rows.find((r) => r.case.includes('starts in the worker'));
    const lines: string[] = [];
    if (sqlite && one)
      lines.push(
        `Per-node overhead of the worker (1 process) over in-process SQLite: ${(one.usPerOp - sqlite.usPerOp).toFixed(0)} µs (${one.usPerOp.toFixed(0)} vs ${sqlite.usPerOp.toFixed(0)} µs per node).`,
      );
    if (one && quiet)
      lines.push(
        `Sending every engine event over NOTIFY costs ${(one.usPerOp - quiet.usPerOp).toFixed(0)} µs per node.`,
      );
    if (one && two)
      lines.push(`2 processes vs 1: ${(one.totalMs / two.totalMs).toFixed(2)}x the throughput.`);
    if (latency)
      lines.push(
        `Enqueue to first node p50: ${latency.totalMs.toFixed(1)} ms (goal < 20 ms): ${latency.totalMs < 20 ? 'met' : 'NOT met'}.`,
      );
    return lines.join('\n');
  },
};
