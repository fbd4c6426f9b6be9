import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorkerClient, type WorkerClient } from './index.js';
import { signalLockKey } from './signal-job.js';
import { THREAD_LOCK_NAMESPACE } from './sql-names.js';
import { StaleJobReaper } from './stale-job-reaper.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';

// The reaper on the rows graphile-worker leaves: each job is locked here by hand, as a pool that
// took it (live or dead) leaves it, and one sweep runs; no worker takes anything meanwhile.

const SCHEMAS = { schema: 'skein_reaper', graphileSchema: 'gw_reaper' };
const G = SCHEMAS.graphileSchema;

let server: TestPostgres;
let admin: pg.Pool;
let client: WorkerClient;
let reaper: StaleJobReaper;

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.connectionString, max: 4 });
  admin.on('error', () => {});
  client = createWorkerClient({ connectionString: server.connectionString, ...SCHEMAS });
  await client.migrate();
  reaper = new StaleJobReaper({
    pool: admin,
    graphileSchema: G,
    staleAfterMs: 2_000,
    intervalMs: 60_000,
    onError: (error) => {
      throw error;
    },
  });
}, 60_000);

beforeEach(async () => {
  await admin.query(`delete from ${G}._private_jobs`);
  await admin.query(`delete from ${G}._private_job_queues`);
});

afterAll(async () => {
  await client?.close();
  await admin?.end();
  await server?.stop();
});

interface JobRow {
  id: string;
  locked_by: string | null;
  queue_locked_by: string | null;
}

async function jobs(): Promise<Map<string, JobRow>> {
  const { rows } = await admin.query<JobRow & { key: string }>(
    `select j.id, j.locked_by, q.locked_by as queue_locked_by,
            coalesce(j.payload->>'threadId', j.payload->>'name') as key
       from ${G}._private_jobs j left join ${G}._private_job_queues q on q.id = j.job_queue_id`,
  );
  return new Map(rows.map((row) => [row.key, row]));
}

/** Locks the job of `key` (a thread id or an event name) as pool `by` does, `ageMs` ago. */
async function lockAs(key: string, by: string, ageMs: number, dueInMs = -1_000): Promise<void> {
  const { rows } = await admin.query<{ job_queue_id: number | null }>(
    `update ${G}._private_jobs
        set locked_by = $2, locked_at = now() - $3 * interval '1 millisecond',
            run_at = now() + $4 * interval '1 millisecond'
      where coalesce(payload->>'threadId', payload->>'name') = $1
      returning job_queue_id`,
    [key, by, ageMs, dueInMs],
  );
  if (rows.length !== 1) throw new Error(`no job of ${key}`);
  if (rows[0]!.job_queue_id !== null)
    await admin.query(
      `update ${G}._private_job_queues set locked_by = $2, locked_at = now() where id = $1`,
      [rows[0]!.job_queue_id, by],
    );
}

/** A session of its own holding the advisory lock of `key`, as a live worker's holder does. */
async function holdLock(key: string): Promise<() => Promise<void>> {
  const holder = await admin.connect();
  await holder.query('select pg_advisory_lock($1, hashtext($2))', [THREAD_LOCK_NAMESPACE, key]);
  return async () => {
    await holder.query('select pg_advisory_unlock($1, hashtext($2))', [THREAD_LOCK_NAMESPACE, key]);
    holder.release();
  };
}

describe('the stale job reaper', () => {
  it("unlocks a dead run's job, and no other job its pool holds", async () => {
    await client.enqueueThread('w', null, { threadId: 'dead-run' });
    await client.enqueueThread('w', null, { threadId: 'live-run' });
    await client.enqueueThread('w', null, { threadId: 'just-taken' });
    // One pool (graphile-worker 0.17 locks with the pool's id): one job's run died with its
    // connection, one still runs under its thread lock, one was taken a moment ago.
    await lockAs('dead-run', 'pool-a', 60_000);
    await lockAs('live-run', 'pool-a', 60_000);
    await lockAs('just-taken', 'pool-a', 0);
    const release = await holdLock('live-run');
    try {
      expect(await reaper.sweep()).toBe(1);
      const after = await jobs();
      expect(after.get('dead-run')?.locked_by).toBeNull();
      expect(after.get('live-run')?.locked_by).toBe('pool-a');
      expect(after.get('just-taken')?.locked_by).toBe('pool-a');
    } finally {
      await release();
    }
  });

  it('leaves a job a live task set aside until it is due, then reaps it if still locked', async () => {
    await client.enqueueThread('w', null, { threadId: 'set-aside' });
    // Put off by its task, which has let go of the thread lock and not yet had graphile-worker's
    // failure update run (a busy pool): locked, long ago, but not due.
    await lockAs('set-aside', 'pool-b', 60_000, 60_000);
    expect(await reaper.sweep()).toBe(0);
    expect((await jobs()).get('set-aside')?.locked_by).toBe('pool-b');
    // Due and still locked: its worker died before the update.
    await lockAs('set-aside', 'pool-b', 60_000, -1);
    expect(await reaper.sweep()).toBe(1);
    expect((await jobs()).get('set-aside')?.locked_by).toBeNull();
  });

  it("tells a live signal delivery from a dead one by its lock, and frees a dead one's queue", async () => {
    await client.signal('payment', { order: 'o-1' });
    await client.signal('shipment', { order: 'o-1' });
    await lockAs('payment', 'pool-c', 60_000);
    await lockAs('shipment', 'pool-c', 60_000);
    const before = await jobs();
    expect(before.get('payment')?.queue_locked_by).toBe('pool-c');
    const release = await holdLock(signalLockKey('payment'));
    try {
      expect(await reaper.sweep()).toBe(1);
      const after = await jobs();
      expect(after.get('payment')).toMatchObject({
        locked_by: 'pool-c',
        queue_locked_by: 'pool-c',
      });
      expect(after.get('shipment')).toMatchObject({ locked_by: null, queue_locked_by: null });
    } finally {
      await release();
    }
    expect(await reaper.sweep()).toBe(1);
    expect((await jobs()).get('payment')).toMatchObject({ locked_by: null, queue_locked_by: null });
  });

  it('passes over a job whose completion is being committed, so it never waits on graphile-worker', async () => {
    await client.enqueueThread('w', null, { threadId: 'finishing' });
    await client.enqueueThread('w', null, { threadId: 'dead' });
    // Both tasks have let go of their thread locks; graphile-worker's batched completion is
    // deleting one job in a transaction not yet committed. Waiting on its row is how the reaper
    // and that completion once deadlocked (each held rows the other needed); it now skips it.
    await lockAs('finishing', 'pool-d', 60_000);
    await lockAs('dead', 'pool-d', 60_000);
    const completing = await admin.connect();
    try {
      await completing.query('begin');
      await completing.query(
        `delete from ${G}._private_jobs where payload->>'threadId' = 'finishing'`,
      );
      expect(await reaper.sweep()).toBe(1);
      await completing.query('commit');
    } finally {
      completing.release();
    }
    const after = await jobs();
    expect(after.has('finishing')).toBe(false);
    expect(after.get('dead')?.locked_by).toBeNull();
  });

  it('puts the signals of one event name in one queue, and those of another name in another', async () => {
    await client.signal('payment', { amount: 1 });
    await client.signal('payment', { amount: 2 });
    await client.signal('refund', { amount: 3 });
    const { rows } = await admin.query<{ name: string; queues: string }>(
      `select payload->>'name' as name, count(distinct job_queue_id)::text as queues
         from ${G}._private_jobs group by 1 order by 1`,
    );
    expect(rows).toEqual([
      { name: 'payment', queues: '1' },
      { name: 'refund', queues: '1' },
    ]);
    const { rows: distinct } = await admin.query<{ n: string }>(
      `select count(distinct job_queue_id)::text as n from ${G}._private_jobs`,
    );
    expect(distinct[0]?.n).toBe('2');
  });
});
