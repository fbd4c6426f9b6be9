import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

// Lease calls join the group commit (decision 0030): a round's leases taken, leases given up and
// saves go as one statement each, side by side, and one thread's calls keep their call order
// across rounds. The model-based check that any mix settles as calling one by one would is in
// the conformance suite (calls-at-once-model.ts).

const db = useTestPostgres();

let counter = 0;
async function freshStore(): Promise<PostgresCheckpointStore> {
  const store = new PostgresCheckpointStore({ pool: db.pool, schema: `group_leases_${++counter}` });
  await store.migrate();
  return store;
}

const hello = [{ role: 'user', content: 'hello' }];
const lease = (owner: string, now: number) => ({ owner, expiresAt: now + 100, now });

/** How each call settled: its value ('done' for none), or the code of the error it failed with. */
function outcomes(calls: readonly Promise<unknown>[]): Promise<unknown[]> {
  return Promise.all(
    calls.map((call) =>
      call.then(
        (value) => value ?? 'done',
        (error: { code?: string }) => error.code ?? String(error),
      ),
    ),
  );
}

/** Each call's error (undefined when it succeeded). */
function errors(calls: readonly Promise<unknown>[]) {
  return Promise.all(
    calls.map((call) =>
      call.then(
        () => undefined,
        (error: { code: string; details: { operation: string } }) => error,
      ),
    ),
  );
}

/** The transactions that wrote the lease rows of these threads (each row keeps its xmin). */
async function leaseWriters(schema: string, threadIds: readonly string[]): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    `SELECT count(DISTINCT xmin::text)::int AS n FROM "${schema}".leases
     WHERE thread_id = ANY($1::text[])`,
    [threadIds],
  );
  return rows[0]!.n;
}

async function threads(store: PostgresCheckpointStore, count: number): Promise<void> {
  for (let i = 0; i < count; i++)
    await store.save(makeCheckpoint(`t${i}`, 1, { messages: 0, log: 0 }, hello));
}

describe('PostgresCheckpointStore group commit with lease calls', () => {
  it('takes the leases asked for together in one transaction', async () => {
    const store = await freshStore();
    const ids = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const taken = await Promise.all(ids.map((id) => store.acquireLease(id, lease('a', 0))));
    expect(taken).toEqual(Array(20).fill(true));
    expect(await leaseWriters(store.schema, ids)).toBe(1);
    // Given up together too: b then gets every one of them.
    await Promise.all(ids.map((id) => store.releaseLease(id, 'a')));
    expect(await Promise.all(ids.map((id) => store.acquireLease(id, lease('b', 1))))).toEqual(
      Array(20).fill(true),
    );
  });

  it('refuses a lease or a save of a group alone; the others are written', async () => {
    const store = await freshStore();
    await threads(store, 3);
    expect(await store.acquireLease('t0', lease('a', 0))).toBe(true);
    const calls = [
      store.acquireLease('t0', lease('b', 10)), // a holds it
      store.save(makeCheckpoint('t1', 1, { messages: 0, log: 0 }, hello)), // stale
      store.save(makeCheckpoint('t2', 2, { messages: 1, log: 0 })),
      store.acquireLease('t3', lease('b', 10)),
    ];
    expect(await outcomes(calls)).toEqual([false, 'CHECKPOINT_CONFLICT', 'done', true]);
    expect((await store.list('t2')).map((c) => c.id)).toEqual(['t2:1', 't2:2']);
    expect(await store.acquireLease('t0', lease('b', 20))).toBe(false);
  });

  it('tries each lease alone when the server refuses the statement, so only one fails', async () => {
    const store = await freshStore();
    // A constraint the lease of 'bad' breaks: the statement writes nothing, then each goes alone.
    await db.pool.query(
      `ALTER TABLE "${store.schema}".leases ADD CONSTRAINT no_bad CHECK (thread_id <> 'bad')`,
    );
    const calls = ['t0', 'bad', 't1'].map((id) => store.acquireLease(id, lease('a', 0)));
    const settled = await errors(calls);
    expect(settled[0]).toBeUndefined();
    expect(settled[1]).toMatchObject({
      code: 'STORE_DATABASE',
      details: { operation: 'acquireLease' },
    });
    expect(settled[2]).toBeUndefined();
    expect(await store.acquireLease('t1', lease('b', 10))).toBe(false);
  });

  it('fails every call of a statement, each named, when the failure is not a refusal', async () => {
    const store = await freshStore();
    await threads(store, 2);
    // An error of no refusal class (P0001): nothing of the statement is written, nothing is retried.
    await db.pool.query(
      `CREATE FUNCTION "${store.schema}".broken() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN RAISE EXCEPTION 'broken'; END $$;
       CREATE TRIGGER broken BEFORE INSERT ON "${store.schema}".leases
         FOR EACH ROW EXECUTE FUNCTION "${store.schema}".broken()`,
    );
    const acquires = ['t0', 't1'].map((id) => store.acquireLease(id, lease('a', 0)));
    // Saves of the same round are their own statement, and are written.
    const saves = [0, 1].map((i) =>
      store.save(makeCheckpoint(`t${i}`, 2, { messages: 1, log: 0 }, hello)),
    );
    expect((await errors(acquires)).map((e) => [e?.code, e?.details.operation])).toEqual([
      ['STORE_DATABASE', 'acquireLease'],
      ['STORE_DATABASE', 'acquireLease'],
    ]);
    expect(await outcomes(saves)).toEqual(['done', 'done']);
    const { rows } = await db.pool.query(`SELECT * FROM "${store.schema}".leases`);
    expect(rows).toEqual([]);
  });
});
