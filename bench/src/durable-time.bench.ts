import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPostgres } from '@skein/store-postgres/testing';
import { createWorkerClient, type WorkerClient } from '@skein/worker';
import { type ForkTimes, forkVsLoad } from './durable-time/fork-vs-load.js';
import { NAP, NO_NAP } from './durable-time/nap.js';
import { startWorker, type WorkerHandle } from './durable-time/worker-handle.js';
import type { BenchRow } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 36's figures. On an embedded PostgreSQL 18 (the queue and the checkpoint store), one
// @skein/worker process at its defaults (concurrency 100, as durable-throughput's workers) runs
// START, SLEEP until vars.wakeAt, END:
// 1. its RSS (after two full GCs in the worker) idle, after a warm-up, and once THREADS threads
//    went to sleep in it (goal: within 10 MiB: nothing of a sleeping thread stays in a worker);
// 2. THREADS due wakes taken by a worker that starts after their time has passed, against the
//    same number of the same threads started (a wake time already past: the same three nodes
//    straight through), queued the same way before a fresh worker starts: threads/s from
//    createWorker to the last thread:completed (goal: waking is not slower). A fresh worker for
//    both, rather than the running one, because a running worker looks for jobs that became due
//    once a second, which would count against the wakes only;
// 3. on the SQLite store, engine.fork of a thread paused after 10,000 steps (from its latest
//    checkpoint, with a variable changed) against engine.loadThread of it, with and without a
//    conversation (goal: fork costs no more than loading; a fork is stored before it returns, so
//    what it is held to is loading plus one checkpoint saved, timed beside it: decision 0022).

const SUITE = 'durable-time';
const quick = process.env.BENCH_QUICK === '1';
const THREADS = quick ? 2_000 : 10_000;
const WARM = quick ? 200 : 500;
const WARM_SLEEPERS = quick ? 100 : 200;
const FORK_STEPS = 10_000;
const FORK_RUNS = quick ? 5 : 21;
const MIB = 1024 * 1024;

const clock = () => performance.timeOrigin + performance.now();

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function load(): string {
  return `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`;
}

function count(n: number): string {
  return n.toLocaleString('en');
}

/** Queues `n` nap threads sleeping until `wakeAt` (epoch ms), a few hundred at a time. */
async function enqueue(client: WorkerClient, prefix: string, n: number, wakeAt: number) {
  const variables = { wakeAt: new Date(wakeAt).toISOString() };
  for (let from = 0; from < n; from += 500)
    await Promise.all(
      Array.from({ length: Math.min(500, n - from) }, (_, i) =>
        client.enqueueThread(NAP, undefined, { threadId: `${prefix}-${from + i}`, variables }),
      ),
    );
}

/** Resolves with `reached`, or rejects once `deadline` (epoch ms) has passed. */
function before<T>(reached: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new Error(`${what} did not happen before the wake time; the machine is too slow`)),
      Math.max(0, deadline - clock()),
    );
  });
  return Promise.race([reached, late]).finally(() => clearTimeout(timer));
}

interface Memory {
  readonly rss: number;
  readonly heapUsed: number;
}

/** The median of three samples half a second apart (RSS after a GC moves by a few MiB). */
async function memoryOf(worker: WorkerHandle): Promise<Memory> {
  const samples: Memory[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    samples.push(await worker.memory());
  }
  return {
    rss: median(samples.map((m) => m.rss)),
    heapUsed: median(samples.map((m) => m.heapUsed)),
  };
}

function memoryRow(caseName: string, ops: number, ms: number, memory: Memory, note: string) {
  return {
    suite: SUITE,
    case: caseName,
    subject: 'one @skein/worker process (PostgreSQL store)',
    ops,
    totalMs: ms,
    usPerOp: (ms * 1000) / ops,
    peakRssMb: memory.rss / MIB,
    note: `RSS ${(memory.rss / MIB).toFixed(1)} MiB, V8 heap used ${(memory.heapUsed / MIB).toFixed(1)} MiB after two full GCs (median of 3); ${note}`,
  } satisfies BenchRow;
}

function rateRow(caseName: string, ms: number, note: string): BenchRow {
  return {
    suite: SUITE,
    case: caseName,
    subject: 'a fresh @skein/worker process (default concurrency)',
    ops: THREADS,
    totalMs: ms,
    usPerOp: (ms * 1000) / THREADS,
    note: `${((THREADS * 1000) / ms).toFixed(0)} threads/s; ${note}`,
  };
}

function forkRows(times: ForkTimes): BenchRow[] {
  const { thread } = times;
  const caseName = `thread paused after ${count(thread.steps)} steps, ${count(thread.messages)} messages`;
  const subjects = {
    load: 'engine.loadThread(id), SQLite store',
    fork: 'engine.fork(id, { variables }), SQLite store',
    floor:
      'engine.loadThread(id) + one checkpoint saved (the floor of a stored fork), SQLite store',
  };
  return (['load', 'fork', 'floor'] as const).map((what) => {
    const ms = median(times[what]);
    return {
      suite: SUITE,
      case: caseName,
      subject: subjects[what],
      ops: 1,
      totalMs: ms,
      usPerOp: ms * 1000,
      note: `median of ${times[what].length}: ${times[what].map((t) => t.toFixed(2)).join(', ')} ms${what === 'load' ? `; thread built in ${(times.buildMs / 1000).toFixed(1)} s` : ''}; ${load()}`,
    };
  });
}

async function measure(dir: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const server = await startTestPostgres();
  const workers: WorkerHandle[] = [];
  const stop = async (worker: WorkerHandle) => {
    workers.splice(workers.indexOf(worker), 1);
    await worker.stop();
  };
  const client = createWorkerClient({ connectionString: server.connectionString });
  try {
    const { connectionString } = server;
    await client.migrate();

    // 1. One worker: warmed up on the start, sleep and wake paths, then idle, then THREADS asleep.
    const worker = await startWorker(connectionString);
    workers.push(worker);
    let started = clock();
    let done = worker.expect('thread:completed', WARM);
    await enqueue(client, 'warm', WARM, Date.parse(NO_NAP));
    const rate = (WARM * 1000) / ((await done) - started); // threads/s, cold: an underestimate
    done = worker.expect('thread:completed', WARM_SLEEPERS);
    await enqueue(
      client,
      'warm-nap',
      WARM_SLEEPERS,
      clock() + (3000 * WARM_SLEEPERS) / rate + 2000,
    );
    await done;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = await memoryOf(worker);
    // The wake time: after every thread should be asleep (twice the time at the warm-up's rate).
    const wakeAt = clock() + (2000 * THREADS) / rate + 5000;
    started = clock();
    const asleep = worker.expect('thread:paused', THREADS);
    await enqueue(client, 'nap', THREADS, wakeAt);
    const asleepMs = (await before(asleep, wakeAt, `${count(THREADS)} threads asleep`)) - started;
    const slept = await memoryOf(worker);
    await stop(worker);
    rows.push(
      memoryRow(
        `idle, after ${count(WARM)} + ${count(WARM_SLEEPERS)} warm-up threads ran`,
        1,
        0,
        idle,
        load(),
      ),
      memoryRow(
        `after ${count(THREADS)} threads went to sleep in it`,
        THREADS,
        asleepMs,
        slept,
        `${((THREADS * 1000) / asleepMs).toFixed(0)} threads/s queued and put to sleep (enqueue included); wake at +${((wakeAt - started) / 1000).toFixed(0)} s; ${load()}`,
      ),
    );

    // 3. While the wake time comes: fork and load on SQLite (no worker runs meanwhile).
    // A 100-step thread too: what a fork costs does not grow with the steps behind it.
    for (const [steps, talks] of [
      [100, false],
      [FORK_STEPS, false],
      [FORK_STEPS, true],
    ] as const)
      rows.push(...forkRows(await forkVsLoad(dir, steps, talks, FORK_RUNS)));

    // 2. Every worker down until the wakes are due; a worker that starts then takes them all.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, wakeAt - clock()) + 200));
    const waker = await startWorker(connectionString, {
      event: 'thread:completed',
      count: THREADS,
    });
    workers.push(waker);
    const wakeMs = (await waker.reached()) - waker.startedAt;
    await stop(waker);
    rows.push(
      rateRow(
        `wakes ${count(THREADS)} due sleeping threads (SLEEP, END)`,
        wakeMs,
        `from createWorker to the last thread:completed; overdue by ${((waker.startedAt - wakeAt) / 1000).toFixed(1)} s when it started; ${load()}`,
      ),
    );
    await enqueue(client, 'start', THREADS, Date.parse(NO_NAP));
    const starter = await startWorker(connectionString, {
      event: 'thread:completed',
      count: THREADS,
    });
    workers.push(starter);
    const startMs = (await starter.reached()) - starter.startedAt;
    await stop(starter);
    rows.push(
      rateRow(
        `starts ${count(THREADS)} queued threads (START, SLEEP already due, END)`,
        startMs,
        `from createWorker to the last thread:completed; ${load()}`,
      ),
    );
  } finally {
    for (const worker of workers.splice(0)) await worker.stop();
    await client.close();
    await server.stop();
  }
  return rows;
}

export const durableTimeSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'skein-bench-time-'));
    try {
      return await measure(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  summarize(rows) {
    const lines: string[] = [];
    const idle = rows.find((r) => r.case.startsWith('idle'));
    const asleep = rows.find((r) => r.case.includes('went to sleep'));
    if (idle?.peakRssMb !== undefined && asleep?.peakRssMb !== undefined) {
      const grew = asleep.peakRssMb - idle.peakRssMb;
      const heap = (r: BenchRow) => Number(/heap used ([\d.]+) MiB/.exec(r.note ?? '')?.[1]);
      lines.push(
        `Memory: ${count(asleep.ops)} sleeping threads: worker RSS ${asleep.peakRssMb.toFixed(1)} MiB vs ${idle.peakRssMb.toFixed(1)} MiB idle: ${grew >= 0 ? '+' : ''}${grew.toFixed(1)} MiB (${(asleep.peakRssMb / idle.peakRssMb).toFixed(2)}x; V8 heap ${(heap(asleep) - heap(idle)).toFixed(1)} MiB; goal within 10 MiB: ${Math.abs(grew) <= 10 ? 'met' : 'NOT met'}).`,
      );
    }
    const wakes = rows.find((r) => r.case.startsWith('wakes'));
    const starts = rows.find((r) => r.case.startsWith('starts'));
    if (wakes && starts) {
      const ratio = starts.totalMs / wakes.totalMs;
      lines.push(
        `Wakes: ${count(wakes.ops)} due threads woken at ${((wakes.ops * 1000) / wakes.totalMs).toFixed(0)} threads/s vs ${((starts.ops * 1000) / starts.totalMs).toFixed(0)} threads/s starting them: ${ratio.toFixed(2)}x the start rate (goal not slower, >= 0.90x allowing for noise: ${ratio >= 0.9 ? 'met' : 'NOT met'}).`,
      );
    }
    for (const shape of new Set(
      rows.filter((r) => r.case.startsWith('thread paused')).map((r) => r.case),
    )) {
      const loaded = rows.find(
        (r) => r.case === shape && r.subject.startsWith('engine.loadThread'),
      );
      const forked = rows.find((r) => r.case === shape && r.subject.startsWith('engine.fork'));
      const floor = rows.find((r) => r.case === shape && r.subject.includes('floor'));
      if (!loaded || !forked || !floor) continue;
      const ratio = forked.totalMs / floor.totalMs;
      const steps = Number(/after ([\d,]+) steps/.exec(shape)?.[1]?.replaceAll(',', ''));
      // A fork is stored before it returns: one durable write more than loading is its floor.
      const goal =
        steps < FORK_STEPS / 2
          ? 'the scale check'
          : `goal no more than loading plus that write, <= 1.15x allowing for noise: ${ratio <= 1.15 ? 'met' : 'NOT met'}`;
      lines.push(
        `Fork (${shape}): ${forked.totalMs.toFixed(2)} ms vs loadThread ${loaded.totalMs.toFixed(2)} ms (${(forked.totalMs / loaded.totalMs).toFixed(2)}x) and loadThread + one checkpoint saved ${floor.totalMs.toFixed(2)} ms: ${ratio.toFixed(2)}x (${goal}).`,
      );
    }
    return lines.join('\n');
  },
};
