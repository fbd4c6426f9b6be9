import { InMemoryCheckpointStore, type SkeinEngine } from '@skein/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorker, createWorkerClient, type SkeinWorker, type WorkerClient } from './index.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';
import { testEngine } from './test-support/test-engine.js';

// Issue 36 on the worker: a wake is a graphile-worker job due at the wake time, so a worker that
// starts after that time wakes the thread; a signal is a job any worker delivers once.

const SCHEMAS = { schema: 'skein_time', graphileSchema: 'gw_time' };
const NAP_MS = 300;

let server: TestPostgres;
const workers: SkeinWorker[] = [];
const clients: WorkerClient[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
  for (const c of clients.splice(0)) await c.close();
});

afterAll(async () => {
  await server?.stop();
});

/** The test engine plus a napping thread and one waiting for a payment event. */
function engineOn(store: InMemoryCheckpointStore): SkeinEngine {
  const engine = testEngine(store);
  engine.registerWorkflow({
    id: 'nap',
    version: '1',
    nodes: [
      { id: 'start', type: 'START' },
      { id: 'nap', type: 'SLEEP', config: { duration: NAP_MS } },
      { id: 'end', type: 'END', config: { output: '"rested"' } },
    ],
    edges: [
      { from: 'start', to: 'nap' },
      { from: 'nap', to: 'end' },
    ],
  });
  // Two branches: one naps, the other naps twice as long.
  engine.registerWorkflow({
    id: 'naps',
    version: '1',
    nodes: [
      { id: 'start', type: 'START' },
      {
        id: 'fan',
        type: 'PARALLEL',
        config: {
          join: 'join',
          branches: [
            { name: 'short', start: 'nap_short' },
            { name: 'long', start: 'nap_long' },
          ],
        },
      },
      { id: 'nap_short', type: 'SLEEP', config: { duration: NAP_MS } },
      { id: 'nap_long', type: 'SLEEP', config: { duration: 2 * NAP_MS } },
      { id: 'join', type: 'JOIN', config: { outputVariable: 'naps' } },
      { id: 'end', type: 'END', config: { output: 'vars.naps' } },
    ],
    edges: [
      { from: 'start', to: 'fan' },
      { from: 'nap_short', to: 'join' },
      { from: 'nap_long', to: 'join' },
      { from: 'join', to: 'end' },
    ],
  });
  engine.registerWorkflow({
    id: 'pay',
    version: '1',
    variables: { defaults: { order: 'o-1' } },
    nodes: [
      { id: 'start', type: 'START' },
      {
        id: 'paid',
        type: 'WAIT_FOR_EVENT',
        config: { event: 'payment', match: 'event.order == vars.order', variable: 'receipt' },
      },
      { id: 'end', type: 'END', config: { output: 'vars.receipt.amount' } },
    ],
    edges: [
      { from: 'start', to: 'paid' },
      { from: 'paid', to: 'end' },
    ],
  });
  return engine;
}

async function startWorker(engine: SkeinEngine): Promise<SkeinWorker> {
  const worker = await createWorker({
    engine,
    connectionString: server.connectionString,
    ...SCHEMAS,
    handleSignals: false,
    log: () => {},
  });
  workers.push(worker);
  return worker;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const statusOf = async (store: InMemoryCheckpointStore, id: string) =>
  (await store.load(id))?.state.status;

describe('durable time and events on workers', () => {
  it('wakes a sleeping thread on a worker that started after its wake time had passed', async () => {
    const store = new InMemoryCheckpointStore();
    const first = await startWorker(engineOn(store));
    await first.enqueueThread('nap', 'zzz', { threadId: 'nap-1' });
    await until(async () => (await statusOf(store, 'nap-1')) === 'WAITING', 'the nap');
    const wakeAt = Date.parse(
      ((await store.load('nap-1'))!.state.pending as { wakeAt: string }).wakeAt,
    );
    // Every worker down until the wake time has passed; no timer anywhere holds the wake.
    await first.stop();
    workers.splice(0);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, wakeAt - Date.now()) + 50));
    await startWorker(engineOn(store));
    await until(async () => (await statusOf(store, 'nap-1')) === 'COMPLETED', 'the wake');
    expect((await store.load('nap-1'))!.state.output).toBe('rested');
    // Woken once: one checkpoint claimed the wake.
    const claims = (await store.list('nap-1')).filter((c) => c.status === 'RUNNING');
    expect(claims.length).toBeGreaterThan(0);
  });

  it('wakes the sleeping branches of a thread, one wake job at a time, on a worker started late', async () => {
    const store = new InMemoryCheckpointStore();
    const first = await startWorker(engineOn(store));
    await first.enqueueThread('naps', 'zzz', { threadId: 'naps-1' });
    await until(async () => (await statusOf(store, 'naps-1')) === 'WAITING', 'the naps');
    const pending = (await store.load('naps-1'))!.state.pending;
    if (pending?.kind !== 'branches') throw new Error(`not waiting on branches: ${pending?.kind}`);
    const waiting = { waiting: pending.waiting.map((w) => ({ wakeAt: w.wakeAt! })) };
    const last = Math.max(...waiting.waiting.map((w) => Date.parse(w.wakeAt)));
    await first.stop();
    workers.splice(0);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, last - Date.now()) + 50));
    await startWorker(engineOn(store));
    await until(async () => (await statusOf(store, 'naps-1')) === 'COMPLETED', 'both wakes');
    const output = (await store.load('naps-1'))!.state.output as string[];
    expect(output).toEqual(waiting.waiting.map((w) => w.wakeAt));
    // Each branch woken once: one claim of the top-level wait per branch.
    const states = (await store.listStates('naps-1')).map((s) => s.state);
    expect(states.filter((s) => s.pending?.answer && s.status === 'RUNNING')).toHaveLength(2);
  });

  it('delivers a signal sent while the only worker is being restarted, once per thread', async () => {
    const store = new InMemoryCheckpointStore();
    const first = await startWorker(engineOn(store));
    await first.enqueueThread('pay', 'order', { threadId: 'pay-1' });
    await first.enqueueThread('pay', 'order', {
      threadId: 'pay-2',
      variables: { order: 'o-2' },
    });
    await until(
      async () =>
        (await statusOf(store, 'pay-1')) === 'WAITING' &&
        (await statusOf(store, 'pay-2')) === 'WAITING',
      'both waits',
    );
    await first.stop();
    workers.splice(0);
    const client = createWorkerClient({ connectionString: server.connectionString, ...SCHEMAS });
    clients.push(client);
    // Sent five times while no worker runs: each is a job, and the jobs of one event name are
    // delivered in the order sent, so the thread takes the first only (the worker would take all
    // five at once otherwise: it ran 99 first once, in CI).
    for (const amount of [42, 99, 7, 13, 21])
      await client.signal('payment', { order: 'o-1', amount });
    await expect(client.signal('', {})).rejects.toThrow(/non-empty string name/);
    await startWorker(engineOn(store));
    await until(async () => (await statusOf(store, 'pay-1')) === 'COMPLETED', 'the delivery');
    expect((await store.load('pay-1'))!.state.output).toBe(42);
    // The other order's thread still waits: the match held for pay-1 only.
    expect(await statusOf(store, 'pay-2')).toBe('WAITING');
  });
});
