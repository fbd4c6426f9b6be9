import type { Checkpoint } from '@skein/core/store-kit';
import { describe, expect, it, vi } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { statements } from './statements.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

const db = useTestPostgres();

let counter = 0;
/** A store on a schema of its own, migrated. */
async function freshStore(): Promise<PostgresCheckpointStore> {
  const store = new PostgresCheckpointStore({ pool: db.pool, schema: `fence_${++counter}` });
  await store.migrate();
  return store;
}

function owned(checkpoint: Checkpoint, owner: unknown): Checkpoint {
  return { ...checkpoint, owner: owner as string };
}

async function count(schema: string, table: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "${schema}".${table}`,
  );
  return rows[0]!.n;
}

/** Resolves once a connection of this database waits for a lock (`event`: which kind). */
async function someoneWaits(event?: string): Promise<void> {
  for (;;) {
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'
         AND ($1::text IS NULL OR wait_event = $1)`,
      [event ?? null],
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Runs the store's own lease statement in a transaction left open, as a process would be in the
 * middle of taking the lease; `commit()` ends it.
 */
async function acquireInFlight(
  schema: string,
  threadId: string,
  lease: { owner: string; expiresAt: number; now: number },
): Promise<{ granted: boolean; commit(): Promise<void> }> {
  const client = await db.pool.connect();
  await client.query('BEGIN');
  const { rows } = await client.query<{ taken: boolean }>({
    ...statements(schema).acquireLeases,
    values: [[threadId], [lease.owner], [lease.expiresAt], [lease.now]],
  });
  return {
    granted: rows[0]!.taken,
    async commit() {
      await client.query('COMMIT');
      client.release();
    },
  };
}

const hello = [{ role: 'user', content: 'hello' }];

describe('PostgresCheckpointStore leases', () => {
  it('fence a later checkpoint of a stored thread once another owner took the lease, writing nothing', async () => {
    const store = await freshStore();
    expect(await store.acquireLease('t', { owner: 'a', expiresAt: 100, now: 0 })).toBe(true);
    await store.save(owned(makeCheckpoint('t', 1, { messages: 0, log: 0 }, hello), 'a'));
    // Its own lease, expired but not taken by anyone: a's saves still go through.
    await store.save(owned(makeCheckpoint('t', 2, { messages: 1, log: 0 }), 'a'));
    expect(await store.acquireLease('t', { owner: 'b', expiresAt: 300, now: 200 })).toBe(true);
    await expect(
      store.save(owned(makeCheckpoint('t', 3, { messages: 1, log: 0 }, hello), 'a')),
    ).rejects.toMatchObject({
      name: 'ThreadConflictError',
      code: 'THREAD_LEASED',
      threadId: 't',
      retryable: false,
      details: { owner: 'a', holder: 'b' },
    });
    expect(await count(store.schema, 'checkpoints')).toBe(2);
    expect(await count(store.schema, 'messages')).toBe(1);
    // The new owner continues from the same head.
    await store.save(owned(makeCheckpoint('t', 3, { messages: 1, log: 0 }, hello), 'b'));
    expect((await store.list('t')).map((c) => c.id)).toEqual(['t:1', 't:2', 't:3']);
  });

  it('save a checkpoint in one statement, and look at leases only when it names an owner', async () => {
    const store = await freshStore();
    await store.acquireLease('t', { owner: 'a', expiresAt: 100, now: 0 });
    await store.save(owned(makeCheckpoint('t', 1, { messages: 0, log: 0 }), 'a'));
    const query = vi.spyOn(db.pool, 'query');
    const connect = vi.spyOn(db.pool, 'connect');
    const sent = () =>
      query.mock.calls.map((call) => (call[0] as unknown as { text: string }).text);
    try {
      await store.save(owned(makeCheckpoint('t', 2, { messages: 0, log: 0 }, hello), 'a'));
      expect(sent()).toEqual([expect.stringMatching(/\.leases\b/)]);
      query.mockClear();
      await store.save(makeCheckpoint('t', 3, { messages: 1, log: 0 }));
      expect(sent()).toHaveLength(1);
      expect(sent()[0]).not.toMatch(/\.leases\b/);
      // pool.query() checks out a connection through connect(callback); a transaction would
      // call connect() itself, with no callback.
      expect(connect.mock.calls.filter((call) => (call as unknown[]).length === 0)).toEqual([]);
    } finally {
      query.mockRestore();
      connect.mockRestore();
    }
    expect((await store.list('t')).map((c) => c.id)).toEqual(['t:1', 't:2', 't:3']);
  });

  it('do not fence a checkpoint that names no owner, nor one saved where no lease was taken', async () => {
    const store = await freshStore();
    await store.acquireLease('t', { owner: 'a', expiresAt: 100, now: 0 });
    await store.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }));
    expect((await store.load('t'))!.checkpoint.id).toBe('t:1');
    expect(await store.acquireLease('t', { owner: 'b', expiresAt: 100, now: 50 })).toBe(false);
    await store.save(owned(makeCheckpoint('u', 1, { messages: 0, log: 0 }), 'a'));
    await store.save(owned(makeCheckpoint('u', 2, { messages: 0, log: 0 }), 'a'));
    expect((await store.list('u')).map((c) => c.id)).toEqual(['u:1', 'u:2']);
    expect(await count(store.schema, 'leases')).toBe(1);
  });

  it('refuse a save waiting on the lease row when the lease was taken over meanwhile', async () => {
    const store = await freshStore();
    await store.acquireLease('t', { owner: 'a', expiresAt: 100, now: 0 });
    await store.save(owned(makeCheckpoint('t', 1, { messages: 0, log: 0 }), 'a'));
    const takeover = await acquireInFlight(store.schema, 't', {
      owner: 'b',
      expiresAt: 300,
      now: 200,
    });
    expect(takeover.granted).toBe(true);
    const save = store.save(owned(makeCheckpoint('t', 2, { messages: 0, log: 0 }, hello), 'a'));
    const settled = save.then(
      () => 'saved',
      (error: { code: string }) => error.code,
    );
    // A save that did not wait would settle first (and wrongly): the race shows it.
    await Promise.race([someoneWaits(), settled]);
    await takeover.commit();
    // The save's snapshot still showed a's lease: the lock gave it b's row, committed meanwhile.
    expect(await settled).toBe('THREAD_LEASED');
    expect((await store.list('t')).map((c) => c.id)).toEqual(['t:1']);
  });

  it('refuse a save that found no lease row while an acquireLease inserting one was under way', async () => {
    const store = await freshStore();
    await store.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }));
    const taking = await acquireInFlight(store.schema, 't', { owner: 'b', expiresAt: 100, now: 0 });
    expect(taking.granted).toBe(true);
    const save = store.save(owned(makeCheckpoint('t', 2, { messages: 0, log: 0 }, hello), 'a'));
    const settled = save.then(
      () => 'saved',
      (error: { code: string }) => error.code,
    );
    // The uncommitted row is invisible to the save, which waits for the taker to finish.
    await Promise.race([someoneWaits('advisory'), settled]);
    await taking.commit();
    expect(await settled).toBe('THREAD_LEASED');
    expect((await store.list('t')).map((c) => c.id)).toEqual(['t:1']);
  });

  it('go with the thread when it is deleted, even a thread that was never saved', async () => {
    const store = await freshStore();
    await store.acquireLease('saved', { owner: 'a', expiresAt: 100, now: 0 });
    await store.save(owned(makeCheckpoint('saved', 1, { messages: 0, log: 0 }), 'a'));
    await store.acquireLease('never', { owner: 'a', expiresAt: 100, now: 0 });
    expect(await store.delete('saved')).toBe(true);
    expect(await store.delete('never')).toBe(false);
    expect(await count(store.schema, 'leases')).toBe(0);
    expect(await store.acquireLease('saved', { owner: 'b', expiresAt: 100, now: 0 })).toBe(true);
  });

  it('keep any finite time exactly, fractions and large values included', async () => {
    const store = await freshStore();
    await store.acquireLease('t', { owner: 'a', expiresAt: 1.5, now: 0 });
    expect(await store.acquireLease('t', { owner: 'b', expiresAt: 9, now: 1.4999 })).toBe(false);
    expect(await store.acquireLease('t', { owner: 'b', expiresAt: 2 ** 60, now: 1.5 })).toBe(true);
    expect(await store.acquireLease('t', { owner: 'a', expiresAt: 9, now: 2 ** 60 - 2 ** 9 })).toBe(
      false,
    );
    expect(await store.acquireLease('t', { owner: 'a', expiresAt: 9, now: 2 ** 60 })).toBe(true);
    expect(await store.acquireLease('u', { owner: 'a', expiresAt: -5, now: -10 })).toBe(true);
    expect(await store.acquireLease('u', { owner: 'b', expiresAt: 0, now: -5 })).toBe(true);
  });

  it('refuse bad arguments with INVALID_ARGUMENT naming them, writing nothing', async () => {
    const store = await freshStore();
    const lease = { owner: 'a', expiresAt: 1, now: 0 };
    for (const threadId of [42, '', undefined])
      await expect(store.acquireLease(threadId as string, lease)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        argument: 'threadId',
      });
    await expect(
      store.acquireLease('t', { owner: 'a', expiresAt: 1, now: Number.POSITIVE_INFINITY }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'lease.now' });
    await expect(store.releaseLease(7 as unknown as string, 'a')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'threadId',
    });
    await expect(store.releaseLease('t', null as unknown as string)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'owner',
    });
    for (const owner of ['', 7])
      await expect(
        store.save(owned(makeCheckpoint('t', 1, { messages: 0, log: 0 }), owner)),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'checkpoint.owner' });
    expect(await count(store.schema, 'threads')).toBe(0);
    expect(await count(store.schema, 'leases')).toBe(0);
  });

  it('refuse calls after close() with STORE_CLOSED', async () => {
    const store = new PostgresCheckpointStore({
      connectionString: db.server.connectionString,
      schema: 'closed',
    });
    await store.close();
    await expect(
      store.acquireLease('t', { owner: 'a', expiresAt: 1, now: 0 }),
    ).rejects.toMatchObject({
      name: 'StoreError',
      code: 'STORE_CLOSED',
      details: { operation: 'acquireLease' },
    });
    await expect(store.releaseLease('t', 'a')).rejects.toMatchObject({
      code: 'STORE_CLOSED',
      details: { operation: 'releaseLease' },
    });
  });
});
