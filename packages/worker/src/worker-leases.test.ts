import { InMemoryCheckpointStore, type SkeinEngine } from '@skein/core';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorker, type JobOutcome, type SkeinWorker, type WorkerEvent } from './index.js';
import { THREAD_LOCK_NAMESPACE } from './sql-names.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';
import { gatedWorkflow, gateTool, testEngine } from './test-support/test-engine.js';

// How a worker treats a thread that a live run holds: another owner's lease (a worker that runs
// it after taking its job over, or one whose lease outlived its thread lock), or a job of this
// same process when the database dropped the thread lock.

const SCHEMAS = { schema: 'skein_leases', graphileSchema: 'gw_leases' };

let server: TestPostgres;
let admin: pg.Pool;
let worker: SkeinWorker | undefined;

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.connectionString, max: 2 });
  admin.on('error', () => {});
}, 60_000);

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

/** Gates a test opens by thread id, and how often each thread's tool was called. */
function gates() {
  const open = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  const calls: string[] = [];
  return {
    calls,
    pass: (threadId: string): Promise<string> => {
      calls.push(threadId);
      if (open.has(threadId)) return Promise.resolve('open');
      return new Promise((resolve) => {
        waiting.set(threadId, [...(waiting.get(threadId) ?? []), () => resolve('open')]);
      });
    },
    open(threadId: string) {
      open.add(threadId);
      for (const release of waiting.get(threadId)?.splice(0) ?? []) release();
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function start(engine: SkeinEngine, outcomes: [string, JobOutcome][]): Promise<SkeinWorker> {
  worker = await createWorker({
    engine,
    connectionString: server.connectionString,
    ...SCHEMAS,
    handleSignals: false,
    // Long enough that a job under a busy machine takes its thread lock, and a job set aside has
    // its end recorded by graphile-worker, before either could be taken for a dead worker's (that
    // counts an attempt). It is also how long a set-aside job waits (1 s was lost on a busy CI).
    staleAfterMs: 5_000,
    recoveryIntervalMs: 100,
    onJob: (threadId, outcome) => outcomes.push([threadId, outcome]),
    log: () => {},
  });
  return worker;
}

async function jobOf(threadId: string) {
  const { rows } = await admin.query<{ attempts: number; last_error: string | null }>(
    `select attempts, last_error from ${SCHEMAS.graphileSchema}._private_jobs
      where payload->>'threadId' = $1`,
    [threadId],
  );
  return rows[0];
}

/**
 * The job as it rests between looks (not locked by a worker): a job set aside comes due again and
 * is taken again, counting an attempt while it runs, so only a resting job says what was counted.
 */
async function restingJobOf(threadId: string) {
  let job: { attempts: number; last_error: string | null } | undefined;
  await until(async () => {
    const { rows } = await admin.query<{ attempts: number; last_error: string | null }>(
      `select attempts, last_error from ${SCHEMAS.graphileSchema}._private_jobs
        where payload->>'threadId' = $1 and locked_by is null`,
      [threadId],
    );
    job = rows[0];
    return job !== undefined;
  }, `the job of ${threadId} at rest`);
  return job;
}

const far = () => Date.now() + 3_600_000;

describe('a thread another live run holds', () => {
  it('is left alone, with no attempt counted and nothing recorded, and run once it is free', async () => {
    const store = new InMemoryCheckpointStore();
    const outcomes: [string, JobOutcome][] = [];
    const w = await start(testEngine(store), outcomes);
    // Another worker runs it (its lease is live).
    expect(
      await store.acquireLease('held-1', { owner: 'other', expiresAt: far(), now: Date.now() }),
    ).toBe(true);
    const events: WorkerEvent[] = [];
    await w.subscribe('held-1', (event) => events.push(event));
    await w.enqueueThread('chain', 'hello', { threadId: 'held-1' });
    await until(() => outcomes.some(([, o]) => o.kind === 'leased'), 'the leased outcome');
    expect(await store.load('held-1')).toBeUndefined();
    const job = await restingJobOf('held-1');
    // Set aside, not failed: no attempt counted, and at most a note that it was set aside.
    expect(job?.attempts).toBe(0);
    expect(job?.last_error ?? 'set aside').toMatch(/set aside/);
    expect(events.map((e) => e.event)).not.toContain('thread:failed');
    // Its run ends (or its lease expires): the job, looked at again, runs the thread.
    await store.releaseLease('held-1', 'other');
    await until(() => outcomes.some(([, o]) => o.kind === 'ran'), 'the run');
    expect((await store.load('held-1'))?.state.status).toBe('COMPLETED');
    expect(outcomes.filter(([, o]) => o.kind === 'ran')).toHaveLength(1);
    expect(outcomes.every(([, o]) => o.kind === 'ran' || o.kind === 'leased')).toBe(true);
  });

  it('stops quietly when its checkpoint is refused because its lease was taken, and goes on once free', async () => {
    const store = new InMemoryCheckpointStore();
    const gate = gates();
    const engine = testEngine(store);
    engine.registerTool(gateTool(gate.pass));
    engine.registerWorkflow(gatedWorkflow());
    const outcomes: [string, JobOutcome][] = [];
    const w = await start(engine, outcomes);
    const events: WorkerEvent[] = [];
    await w.subscribe('lost-1', (event) => events.push(event));
    await w.enqueueThread('gated', 'go', { threadId: 'lost-1' });
    await until(() => gate.calls.includes('lost-1'), 'the tool call');
    // This worker's lease expired (it could not renew it) and another worker took the thread.
    const later = far();
    expect(
      await store.acquireLease('lost-1', { owner: 'thief', now: later, expiresAt: later + 60_000 }),
    ).toBe(true);
    const before = (await store.list('lost-1')).length;
    gate.open('lost-1');
    await until(
      () => outcomes.some(([, o]) => o.kind === 'stale-writer'),
      'the stale-writer outcome',
    );
    // Nothing recorded: not FAILED, no second result, no failure told to subscribers.
    const stored = await store.list('lost-1');
    expect(stored).toHaveLength(before);
    expect(stored.map((c) => c.status)).not.toContain('FAILED');
    expect(events.map((e) => e.event)).not.toContain('thread:failed');
    expect((await jobOf('lost-1'))?.last_error ?? 'set aside').toMatch(/set aside/);
    // The other worker dies: the job goes on from the last stored checkpoint.
    await store.releaseLease('lost-1', 'thief');
    // This thread's run: a job another test left in the shared queue could run meanwhile.
    await until(() => outcomes.some(([id, o]) => id === 'lost-1' && o.kind === 'ran'), 'the run');
    const ran = outcomes.find(([id, o]) => id === 'lost-1' && o.kind === 'ran')![1];
    expect(ran, JSON.stringify(outcomes)).toMatchObject({ result: { status: 'COMPLETED' } });
    expect((await store.load('lost-1'))?.state.status).toBe('COMPLETED');
    const checkpoints = await store.list('lost-1');
    expect(checkpoints.filter((c) => c.status === 'COMPLETED')).toHaveLength(1);
    expect(checkpoints.map((c) => c.status)).not.toContain('FAILED');
    expect(outcomes.filter(([id, o]) => id === 'lost-1' && o.kind === 'ran')).toHaveLength(1);
  });

  it('is not run a second time by this process when the database dropped its thread lock', async () => {
    const store = new InMemoryCheckpointStore();
    const gate = gates();
    const engine = testEngine(store);
    engine.registerTool(gateTool(gate.pass));
    engine.registerWorkflow(gatedWorkflow());
    const outcomes: [string, JobOutcome][] = [];
    const w = await start(engine, outcomes);
    await w.enqueueThread('gated', 'go', { threadId: 'twice-1' });
    await until(() => gate.calls.includes('twice-1'), 'the tool call');
    // Cut the connection that holds the thread lock, as a database restart does: the reaper
    // frees the job and this same worker takes it again.
    await admin.query(
      `select pg_terminate_backend(pid) from pg_locks
        where locktype = 'advisory' and granted and classid = $1 and objsubid = 2
          and pid <> pg_backend_pid()`,
      [THREAD_LOCK_NAMESPACE],
    );
    await until(() => outcomes.some(([, o]) => o.kind === 'leased'), 'the leased outcome');
    expect(gate.calls.filter((id) => id === 'twice-1')).toHaveLength(1);
    gate.open('twice-1');
    await until(() => outcomes.some(([, o]) => o.kind === 'ran'), 'the run');
    expect((await store.load('twice-1'))?.state.status).toBe('COMPLETED');
    expect(outcomes.filter(([, o]) => o.kind === 'ran')).toHaveLength(1);
    expect(gate.calls.filter((id) => id === 'twice-1')).toHaveLength(1);
  });
});
