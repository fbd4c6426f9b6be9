import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerClient, type WorkerClient } from './index.js';
import { type GateServer, startGateServer } from './test-support/gate-server.js';
import { type RestartablePostgres, startOwnPostgres } from './test-support/start-postgres.js';

// Two worker processes run threads that wait at a gate this test opens; PostgreSQL is stopped
// under them and started again on the same data and port. Some threads end their node while the
// database is down (their checkpoint cannot be saved), the others only after it is back (their
// thread locks went with the restart, so the other worker's reaper hands their jobs out again
// while they still run). Every thread must complete exactly once, and both workers must live on.

// Literal URL, so tools that follow imports (knip) see the child script too.
const workerScript = fileURLToPath(
  new URL('./test-support/outage-worker-process.ts', import.meta.url),
);

interface WorkerChild {
  readonly label: string;
  readonly child: ChildProcess;
  readonly lines: string[];
  exit: number | null | undefined;
}

let pg: RestartablePostgres;
let store: PostgresCheckpointStore;
let client: WorkerClient;
let gate: GateServer;
const workers: WorkerChild[] = [];

function startWorker(label: string): Promise<WorkerChild> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', workerScript, pg.connectionString, gate.url, label],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const worker: WorkerChild = { label, child, lines: [], exit: undefined };
  workers.push(worker);
  let partial = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      worker.exit = code;
      reject(new Error(`worker ${label} exited early (${code})`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      worker.lines.push(...lines);
      if (lines.includes('ready')) resolve(worker);
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `check` (polling), failing at once if a worker process died meanwhile. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = workers.find((w) => w.exit !== undefined && !w.child.killed);
    if (dead)
      throw new Error(`worker ${dead.label} exited (code ${dead.exit}) while waiting for ${what}`);
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Lines of every worker that start with `prefix` (`job <thread> ran COMPLETED`, …). */
function lines(prefix: string): string[] {
  return workers.flatMap((w) => w.lines.filter((line) => line.startsWith(prefix)));
}

async function completed(ids: readonly string[]): Promise<boolean> {
  for (const id of ids) if ((await store.load(id))?.state.status !== 'COMPLETED') return false;
  return true;
}

beforeAll(async () => {
  pg = await startOwnPostgres();
  store = new PostgresCheckpointStore({ connectionString: pg.connectionString });
  await store.migrate();
  client = createWorkerClient({ connectionString: pg.connectionString, log: () => {} });
  await client.migrate();
  gate = await startGateServer();
}, 60_000);

afterAll(async () => {
  for (const { child } of workers) child.kill('SIGKILL');
  await client?.close();
  await store?.close();
  await gate?.close();
  await pg?.stop();
});

describe('a PostgreSQL restart under two worker processes', () => {
  it('completes every thread exactly once, and both workers go on taking jobs', {
    timeout: 300_000,
  }, async () => {
    const [a, b] = await Promise.all([startWorker('a'), startWorker('b')]);
    const ids = Array.from({ length: 8 }, (_, i) => `outage-${i}`);
    for (const id of ids) await client.enqueueThread('gated', `task ${id}`, { threadId: id });
    // Four threads a worker: each runs as many as its concurrency.
    await until(() => gate.waiting().length === ids.length, 'every thread at the gate');
    const at = (label: string) =>
      gate.arrivals
        .filter((arrival) => arrival.worker === label)
        .map((arrival) => arrival.threadId);
    expect(at('a')).toHaveLength(4);
    expect(at('b')).toHaveLength(4);
    const endInOutage = [...at('a').slice(0, 2), ...at('b').slice(0, 2)];
    const endAfter = ids.filter((id) => !endInOutage.includes(id));

    await pg.halt();
    for (const id of endInOutage) gate.open(id);
    // Their checkpoint cannot be saved: each run ends, the job fails and cannot even be recorded.
    await until(
      () => endInOutage.every((id) => lines(`failed ${id} CHECKPOINT_SAVE_FAILED`).length > 0),
      'the runs that ended during the outage to fail',
    );
    await pg.restart();
    // The restart dropped every thread lock: the reapers hand the still running threads' jobs
    // out again, and whoever takes one finds the thread leased by its live run.
    await until(
      () => endAfter.every((id) => lines(`job ${id} leased`).length > 0),
      'a takeover attempt of every thread still running',
    );
    for (const id of endAfter) gate.open(id);
    // A worker says what its job did after the checkpoint is stored: wait for both.
    await until(
      async () => (await completed(ids)) && ids.every((id) => lines(`job ${id} ran`).length > 0),
      'every thread to complete',
    );

    for (const id of ids) {
      // One result: one completed run, one COMPLETED checkpoint.
      expect(lines(`job ${id} ran COMPLETED`), id).toHaveLength(1);
      const checkpoints = await store.list(id);
      expect(
        checkpoints.filter((c) => c.status === 'COMPLETED'),
        id,
      ).toHaveLength(1);
      // One linear history with one checkpoint per node: nothing written twice.
      expect(checkpoints.map((c) => c.sequence)).toEqual(checkpoints.map((_, i) => i + 1));
      const steps = checkpoints.map((c) => c.step);
      expect(new Set(steps).size, `${id} steps ${steps}`).toBe(steps.length);
      expect((await store.load(id))?.state.nodeOutputs.wait).toBe('open');
    }
    // The takeover was fenced: a thread that ran through the outage called its tool once.
    for (const id of endAfter)
      expect(
        gate.arrivals.filter((arrival) => arrival.threadId === id),
        id,
      ).toHaveLength(1);

    // Both workers are alive and take new jobs.
    expect([a!.exit, b!.exit]).toEqual([undefined, undefined]);
    const more = Array.from({ length: 8 }, (_, i) => `after-${i}`);
    for (const id of more) await client.enqueueThread('gated', `task ${id}`, { threadId: id });
    await until(() => more.every((id) => gate.waiting().includes(id)), 'new threads at the gate');
    const newAt = (label: string) => at(label).filter((id) => more.includes(id));
    expect(newAt('a').length).toBeGreaterThan(0);
    expect(newAt('b').length).toBeGreaterThan(0);
    for (const id of more) gate.open(id);
    await until(() => completed(more), 'the new threads to complete');

    const codes = await Promise.all(
      [a!, b!].map(
        (w) =>
          new Promise<number | null>((resolve) => {
            w.child.once('exit', resolve);
            w.child.kill('SIGTERM');
          }),
      ),
    );
    expect(codes).toEqual([0, 0]);
  });
});
