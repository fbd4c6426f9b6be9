import {
  type CheckpointStore,
  InMemoryCheckpointStore,
  type Tool,
  WorkflowBuilder,
} from '@skein/core';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorker,
  createWorkerClient,
  type JobOutcome,
  type SkeinWorker,
  UnknownThreadError,
  WorkerClosedError,
  type WorkerEvent,
} from './index.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';
import { testEngine } from './test-support/test-engine.js';

let pg: TestPostgres;
let store: PostgresCheckpointStore;
let worker: SkeinWorker;
const HANDBACK_SCHEMAS = { schema: 'skein_handback', graphileSchema: 'gw_handback' };
const charged: string[] = [];

/** A side effect that records the idempotency key the worker gives it. */
const charge: Tool = {
  name: 'charge',
  description: 'Charges the card once',
  parameters: { type: 'object', properties: {} },
  execute: (_args, context) => {
    charged.push(worker.idempotencyKey(context));
    return 'charged';
  },
};

beforeAll(async () => {
  pg = await startPostgres();
  store = new PostgresCheckpointStore({ connectionString: pg.connectionString });
  await store.migrate();
  // graphile-worker announces a new schema to every worker of the database as a breaking
  // migration, so the second schema the handback test uses is made before any worker runs.
  for (const schemas of [HANDBACK_SCHEMAS, { schema: 'skein_flaky', graphileSchema: 'gw_flaky' }]) {
    const other = createWorkerClient({ connectionString: pg.connectionString, ...schemas });
    await other.migrate();
    await other.close();
  }
  const engine = testEngine(store);
  engine.registerTool(charge);
  engine.registerWorkflow(
    new WorkflowBuilder('pay', '1')
      .start()
      .tool('pay', { tool: 'charge', args: {} })
      .end('end')
      .chain('start', 'pay', 'end')
      .build(),
  );
  worker = await createWorker({
    engine,
    connectionString: pg.connectionString,
    concurrency: 4,
    handleSignals: false,
  });
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await store?.close();
  await pg?.stop();
});

function waitFor<T>(
  events: T[],
  predicate: (event: T) => boolean,
  timeoutMs = 20_000,
  label = 'event',
): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = (): void => {
      const found = events.find(predicate);
      if (found) resolve(found);
      else if (Date.now() - started > timeoutMs)
        reject(
          new Error(`${label} never came: ${events.map((e) => JSON.stringify(e)).join(', ')}`),
        );
      else setTimeout(check, 10);
    };
    check();
  });
}

describe('a worker in this process', () => {
  it('runs an enqueued thread and streams its events to a client in another connection', async () => {
    const client = createWorkerClient({ connectionString: pg.connectionString });
    try {
      const events: WorkerEvent[] = [];
      const threadId = 'chain-1';
      const unsubscribe = await client.subscribe(threadId, (event) => events.push(event));
      expect(await client.enqueueThread('chain', 'hello', { threadId })).toBe(threadId);
      const done = await waitFor(events, (e) => e.event === 'thread:completed');
      expect(done.data).toMatchObject({ threadId, status: 'COMPLETED', output: 3 });
      const names = events.map((e) => e.event);
      expect(names.indexOf('thread:started')).toBeLessThan(names.indexOf('node:started'));
      expect(names.filter((n) => n === 'node:completed')).toHaveLength(8);
      expect(names).toContain('llm:token');
      await unsubscribe();
      const stored = await store.load(threadId);
      expect(stored?.state.status).toBe('COMPLETED');
      // Enqueueing the same id again does nothing.
      await client.enqueueThread('chain', 'hello', { threadId });
    } finally {
      await client.close();
    }
  });

  it('ends the job at a pause; a resume from another client continues the thread', async () => {
    const client = createWorkerClient({ connectionString: pg.connectionString });
    try {
      const events: WorkerEvent[] = [];
      const threadId = 'approval-1';
      await client.subscribe(threadId, (event) => events.push(event));
      await client.enqueueThread('approval', 'please', { threadId });
      await waitFor(events, (e) => e.event === 'thread:paused');
      await waitFor(events, () => worker.runningThreads.length === 0);
      expect((await store.load(threadId))?.state.status).toBe('PAUSED');
      await client.resumeThread(threadId, 'yes');
      const done = await waitFor(events, (e) => e.event === 'thread:completed');
      expect(done.data).toMatchObject({ output: 'yes' });
      // A second resume finds nothing to resume and says so.
      await client.resumeThread(threadId, 'again');
      const dropped = await waitFor(events, (e) => e.event === 'warning');
      expect(dropped.data).toMatchObject({ code: 'WORKER_RESUME_DROPPED' });
    } finally {
      await client.close();
    }
  });

  it('cancels a running thread from another client', async () => {
    const client = createWorkerClient({ connectionString: pg.connectionString });
    try {
      const events: WorkerEvent[] = [];
      const threadId = 'forever-1';
      await client.subscribe(threadId, (event) => events.push(event));
      await client.enqueueThread('forever', 'go', { threadId });
      await waitFor(events, (e) => e.event === 'llm:request');
      await client.cancelThread(threadId);
      await waitFor(events, (e) => e.event === 'thread:cancelled');
      expect((await store.load(threadId))?.state.status).toBe('CANCELLED');
    } finally {
      await client.close();
    }
  });

  it('cancels a paused thread', async () => {
    const events: WorkerEvent[] = [];
    const threadId = 'approval-cancel';
    await worker.subscribe(threadId, (event) => events.push(event));
    await worker.enqueueThread('approval', 'please', { threadId });
    await waitFor(events, (e) => e.event === 'thread:paused');
    await worker.cancelThread(threadId);
    await waitFor(events, (e) => e.event === 'thread:cancelled');
    await worker.resumeThread(threadId, 'too late');
    await waitFor(events, (e) => e.event === 'warning');
    expect((await store.load(threadId))?.state.status).toBe('CANCELLED');
  });

  it('gives tools an idempotency key that names thread, node, step and call', async () => {
    const events: WorkerEvent[] = [];
    await worker.subscribe('pay-1', (event) => events.push(event));
    await worker.enqueueThread('pay', undefined, { threadId: 'pay-1' });
    await waitFor(events, (e) => e.event === 'thread:completed');
    expect(charged).toEqual(['pay-1:pay:1:0:0']);
  });

  it('hands a running thread back on stop; another worker goes on from its checkpoint', async () => {
    // Schemas of their own, so the main worker does not take these jobs.
    const schemas = HANDBACK_SCHEMAS;
    const outcomes: JobOutcome[] = [];
    const options = {
      connectionString: pg.connectionString,
      ...schemas,
      handleSignals: false,
      shutdownTimeoutMs: 200,
      onJob: (_: string, outcome: JobOutcome) => outcomes.push(outcome),
    };
    const first = await createWorker({ engine: testEngine(store), ...options });
    const events: WorkerEvent[] = [];
    const client = createWorkerClient({ connectionString: pg.connectionString, ...schemas });
    try {
      await client.subscribe('handback-1', (event) => events.push(event));
      await first.enqueueThread('forever', 'go', { threadId: 'handback-1' });
      await waitFor(events, (e) => e.event === 'llm:request', 30_000, 'first run');
      expect(first.runningThreads).toEqual(['handback-1']);
      await first.stop();
      expect(outcomes).toEqual([{ kind: 'handed-back' }]);
      expect(events.some((e) => e.event === 'thread:cancelled')).toBe(false);
      const second = await createWorker({ engine: testEngine(store), ...options });
      try {
        await waitFor(
          events,
          (e) => e.event === 'llm:request' && second.runningThreads.includes('handback-1'),
          30_000,
          'second run',
        );
        await client.cancelThread('handback-1');
        await waitFor(events, (e) => e.event === 'thread:cancelled');
      } finally {
        await second.stop();
      }
      expect(outcomes[1]).toMatchObject({ kind: 'ran', from: 'checkpoint' });
      expect((await store.load('handback-1'))?.state.status).toBe('CANCELLED');
    } finally {
      await client.close();
    }
  });

  it('refuses to resume or cancel an id never enqueued, and any call after close', async () => {
    const client = createWorkerClient({ connectionString: pg.connectionString });
    await expect(client.resumeThread('nobody', 'x')).rejects.toSatisfy(
      UnknownThreadError.isInstance,
    );
    await expect(client.cancelThread('nobody')).rejects.toSatisfy((e) =>
      UnknownThreadError.isInstance(e),
    );
    await client.close();
    await expect(client.enqueueThread('chain')).rejects.toSatisfy((e) =>
      WorkerClosedError.isInstance(e),
    );
  });

  it('retries a thread whose checkpoint the store failed to save, from the last stored one', async () => {
    // A store that refuses every third save once, as a database outage would.
    let saves = 0;
    const flaky: CheckpointStore = {
      save: (checkpoint) => {
        if (++saves === 3) return Promise.reject(new Error('connection reset'));
        return store.save(checkpoint);
      },
      load: (threadId, checkpointId) => store.load(threadId, checkpointId),
      list: (threadId) => store.list(threadId),
      listStates: (threadId) => store.listStates(threadId),
      listThreads: () => store.listThreads(),
      listWakes: () => store.listWakes(),
      listWaiting: (event) => store.listWaiting(event),
      delete: (threadId) => store.delete(threadId),
      prune: (threadId, options) => store.prune(threadId, options),
      acquireLease: (threadId, lease) => store.acquireLease(threadId, lease),
      releaseLease: (threadId, owner) => store.releaseLease(threadId, owner),
    };
    const schemas = { schema: 'skein_flaky', graphileSchema: 'gw_flaky' };
    const outcomes: JobOutcome[] = [];
    const flakyWorker = await createWorker({
      engine: testEngine(flaky),
      connectionString: pg.connectionString,
      ...schemas,
      handleSignals: false,
      // graphile-worker logs the failed attempt; expected here.
      log: () => {},
      onJob: (_, outcome) => outcomes.push(outcome),
    });
    try {
      const events: WorkerEvent[] = [];
      await flakyWorker.subscribe('flaky-1', (event) => events.push(event));
      await flakyWorker.enqueueThread('chain', 'hello', { threadId: 'flaky-1' });
      await waitFor(events, (e) => e.event === 'thread:completed', 30_000, 'completion');
      // The job reports its outcome after the run's events: under load, a little later.
      const ran = await waitFor(outcomes, (o) => o.kind === 'ran', 30_000, 'the job outcome');
      expect(ran).toMatchObject({ kind: 'ran', from: 'checkpoint' });
      const reference = await testEngine(new InMemoryCheckpointStore()).run('chain', {
        threadId: 'flaky-1',
        input: 'hello',
      });
      const stored = await store.load('flaky-1');
      expect(stored?.state.output).toBe(reference.result.output);
      expect(stored?.conversation.messages.map((m) => m.content)).toEqual(
        reference.thread.conversation.getAllMessages().map((m) => m.content),
      );
    } finally {
      await flakyWorker.stop();
    }
  });

  it('refuses an engine without a store', () => {
    expect(
      () =>
        createWorker({
          engine: testEngine(undefined as unknown as InMemoryCheckpointStore),
          connectionString: pg.connectionString,
        }) as unknown,
    ).toThrow(/durable `store`/);
  });
});
