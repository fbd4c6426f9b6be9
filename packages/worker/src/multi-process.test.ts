import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { InMemoryCheckpointStore } from '@skein/core';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerClient, type WorkerClient } from './index.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';
import { testEngine } from './test-support/test-engine.js';

// Three worker processes share 200 threads while, six times, the worker that holds a run in
// flight is killed with SIGKILL (and started anew); a fourth process resumes one thread and
// cancels another. Every thread must end with exactly the conversation and output of an
// uninterrupted in-process run.

const THREADS = 200;
const KILLS = 6;
// Literal URLs, so tools that follow imports (knip) see the child scripts too.
const workerScript = fileURLToPath(new URL('./test-support/worker-process.ts', import.meta.url));
const clientScript = fileURLToPath(new URL('./test-support/client-process.ts', import.meta.url));
// Where the workers mark the `hold-<n>` runs they hold (see worker-process.ts).
const holdFolder = mkdtempSync(join(tmpdir(), 'skein-worker-holds-'));

let pg: TestPostgres;
let store: PostgresCheckpointStore;
let client: WorkerClient;
const children = new Set<ChildProcess>();

const takenOver = new Set<string>();
/** When a thread was taken over, and when each kill happened (machine clock, ms). */
const takeoverTimes: number[] = [];
const killTimes: number[] = [];
const now = () => performance.timeOrigin + performance.now();
/** Who waits for which `holding <thread>` line, and what they are given: the worker holding it. */
const holders = new Map<string, (child: ChildProcess) => void>();

/** Resolves with the worker process that holds a run of `threadId` in flight. */
function holderOf(threadId: string): Promise<ChildProcess> {
  return new Promise((resolve) => holders.set(threadId, resolve));
}

function startWorker(): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', workerScript, pg.connectionString, '50', holdFolder],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [word, id, at] = line.split(' ');
      if (word === 'ready') resolve(child);
      else if (word === 'holding') holders.get(id!)?.(child);
      else if (word === 'took-over') {
        takenOver.add(id!);
        takeoverTimes.push(Number(at));
      }
    });
  });
}

function runProcess(script: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`)))),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function statusOf(threadId: string): Promise<string | undefined> {
  return (await store.load(threadId))?.state.status;
}

async function waitForStatus(threadId: string, status: string): Promise<void> {
  for (let i = 0; i < 600 && (await statusOf(threadId)) !== status; i++) await sleep(100);
  expect(await statusOf(threadId)).toBe(status);
}

beforeAll(async () => {
  pg = await startPostgres();
  store = new PostgresCheckpointStore({ connectionString: pg.connectionString });
  await store.migrate();
  client = createWorkerClient({ connectionString: pg.connectionString });
  await client.migrate();
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await client?.close();
  await store?.close();
  await pg?.stop();
  rmSync(holdFolder, { recursive: true, force: true });
});

describe('three worker processes, one killed again and again', () => {
  it('completes every thread exactly once with its uninterrupted output', {
    timeout: 170_000,
  }, async () => {
    const workers = await Promise.all([startWorker(), startWorker(), startWorker()]);
    const ids = Array.from({ length: THREADS }, (_, i) => `t-${i}`);
    await client.enqueueThread('approval', 'please', { threadId: 'approve-me' });
    await client.enqueueThread('forever', 'go', { threadId: 'cancel-me' });
    // Threads arrive in batches while the killer works, so other runs are in flight at the kills.
    const enqueued = (async () => {
      for (let batch = 0; batch < 20; batch++) {
        for (const id of ids.slice(batch * 10, batch * 10 + 10))
          await client.enqueueThread('chain', `task ${id}`, { threadId: id });
        await sleep(500);
      }
    })();

    // The killer: each `hold-<n>` thread stops, in whichever worker runs it, inside its second
    // model call (past its first checkpoints) until that worker is killed. So every kill lands
    // on a run in flight, whatever the machine's speed; the worker is replaced at once.
    const held = Array.from({ length: KILLS }, (_, i) => `hold-${i}`);
    const killed = new Map<string, number | undefined>();
    const killer = (async () => {
      for (const id of held) {
        const holder = holderOf(id);
        await client.enqueueThread('chain', `task ${id}`, { threadId: id });
        const victim = await holder;
        const index = workers.indexOf(victim);
        expect(index).toBeGreaterThanOrEqual(0);
        victim.kill('SIGKILL');
        killTimes.push(now());
        killed.set(id, victim.pid);
        workers[index] = await startWorker();
      }
    })();

    await waitForStatus('approve-me', 'PAUSED');
    await waitForStatus('cancel-me', 'RUNNING');
    const report = JSON.parse(
      await runProcess(clientScript, [pg.connectionString, 'approve-me', 'cancel-me']),
    ) as { cancelMs: number | null };
    expect(report.cancelMs).not.toBeNull();

    await Promise.all([killer, enqueued]);
    for (;;) {
      const threads = await store.listThreads();
      const done = threads.filter((t) => t.status === 'COMPLETED').length;
      if (done === THREADS + KILLS + 1) break;
      await sleep(250);
    }
    expect(killed.size).toBe(KILLS);
    // Each kill interrupted a run: the killed worker held it (its marker), could not finish it,
    // and yet it completed (checked below against the reference), so another worker went on
    // from the checkpoints the dead one left. (Their "took-over" lines feed the report at the
    // end only: a worker may be killed after finishing a thread and before printing it.)
    for (const id of held)
      expect(readFileSync(join(holdFolder, id), 'utf8'), id).toBe(String(killed.get(id)));

    // The reference: the same threads run in this process, uninterrupted.
    const reference = testEngine(new InMemoryCheckpointStore());
    for (const id of [...ids, ...held]) {
      const { thread, result } = await reference.run('chain', {
        threadId: id,
        input: `task ${id}`,
      });
      const stored = await store.load(id);
      expect(stored?.state.status).toBe('COMPLETED');
      expect(stored?.state.output).toEqual(result.output);
      const shape = (m: { role: string; content?: unknown }) => [m.role, m.content];
      expect(stored?.conversation.messages.map(shape)).toEqual(
        thread.conversation.getAllMessages().map(shape),
      );
      // One linear history: sequences 1..n, one COMPLETED checkpoint.
      const checkpoints = await store.list(id);
      expect(checkpoints.map((c) => c.sequence)).toEqual(checkpoints.map((_, i) => i + 1));
      expect(checkpoints.filter((c) => c.status === 'COMPLETED')).toHaveLength(1);
    }
    // SIGTERM: each worker stops taking jobs, finishes and exits by itself.
    const codes = await Promise.all(
      workers.map(
        (child) =>
          new Promise<number | null>((resolve) => {
            child.removeAllListeners('exit');
            child.once('exit', (code) => resolve(code));
            child.kill('SIGTERM');
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0]);
    const approved = await store.load('approve-me');
    expect(approved?.state.output).toBe('approved by process four');
    expect(await statusOf('cancel-me')).toBe('CANCELLED');
    // From each takeover back to the kill just before it: how long a dead worker's thread waited.
    const waits = takeoverTimes
      .map((at) => at - Math.max(...killTimes.filter((kill) => kill < at)))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    console.log(
      `${takenOver.size} threads taken over after kills, median ${waits[Math.floor(waits.length / 2)]?.toFixed(0)} ms after the kill (max ${waits.at(-1)?.toFixed(0)} ms; staleAfterMs 1000, recoveryIntervalMs 500); cancellation came back to the fourth process after ${report.cancelMs?.toFixed(0)} ms`,
    );
  });
});
