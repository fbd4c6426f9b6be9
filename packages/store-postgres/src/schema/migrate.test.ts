import { checkMigrationOrder } from '@skein/core/store-kit';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from '../postgres-checkpoint-store.js';
import { makeCheckpoint } from '../test-support/make-checkpoint.js';
import { spawnChild } from '../test-support/spawn-child.js';
import { useTestPostgres } from '../test-support/use-test-postgres.js';
import { applyMigrations } from './migrate.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

const db = useTestPostgres();

/** One row per migration applied: every version up to this package's. */
const ALL_VERSIONS = MIGRATIONS.map((m) => m.version);

async function versions(schema: string): Promise<number[]> {
  const { rows } = await db.pool.query<{ version: number }>(
    `SELECT version FROM "${schema}".migrations ORDER BY version`,
  );
  return rows.map((r) => r.version);
}

async function tables(schema: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
    [schema],
  );
  return rows.map((r) => r.table_name);
}

describe('migrations', () => {
  it('create the schema on first use, record each version once, and are idempotent', async () => {
    const store = new PostgresCheckpointStore({
      connectionString: db.server.connectionString,
      schema: 'first_use',
    });
    expect(await tables('first_use')).toEqual([]);
    expect(await store.listThreads()).toEqual([]);
    expect(await tables('first_use')).toEqual([
      'attachment_uses',
      'attachments',
      'checkpoints',
      'inbox',
      'leases',
      'log_entries',
      'messages',
      'migrations',
      'threads',
    ]);
    expect(await versions('first_use')).toEqual(ALL_VERSIONS);
    expect(await store.migrate()).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION });
    const again = new PostgresCheckpointStore({ pool: db.pool, schema: 'first_use' });
    expect(await again.migrate()).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION });
    expect(await versions('first_use')).toEqual(ALL_VERSIONS);
    await store.close();
  });

  it('run explicitly report where they started', async () => {
    const store = new PostgresCheckpointStore({ pool: db.pool, schema: 'explicit' });
    expect(await store.migrate()).toEqual({ from: 0, to: SCHEMA_VERSION });
  });

  it('leave other schemas alone: two stores in one database do not see each other', async () => {
    const a = new PostgresCheckpointStore({ pool: db.pool, schema: 'tenant_a' });
    const b = new PostgresCheckpointStore({ pool: db.pool, schema: 'tenant_b' });
    await a.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }));
    expect(await b.listThreads()).toEqual([]);
    expect(await a.listThreads()).toHaveLength(1);
  });

  it('from five pools at once leave one schema at one version', async () => {
    const pools = Array.from(
      { length: 5 },
      () => new pg.Pool({ connectionString: db.server.connectionString, max: 1 }),
    );
    const stores = pools.map((pool) => new PostgresCheckpointStore({ pool, schema: 'five_pools' }));
    const results = await Promise.all(stores.map((store) => store.migrate()));
    // One of them created the schema; the rest found it done (after waiting for the lock).
    expect(results.filter((r) => r.from === 0)).toHaveLength(1);
    expect(results.every((r) => r.to === SCHEMA_VERSION)).toBe(true);
    expect(await versions('five_pools')).toEqual(ALL_VERSIONS);
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it('from five processes at once leave one schema at one version', async () => {
    const children = Array.from({ length: 5 }, () =>
      spawnChild(new URL('../test-support/migrate-child.ts', import.meta.url), [
        db.server.connectionString,
        'five_processes',
      ]),
    );
    for (const child of children) expect(await child.next()).toBe('ready');
    for (const child of children) child.send('go');
    const lines = await Promise.all(children.map((child) => child.next()));
    expect(lines.filter((line) => line === `migrated 0 ${SCHEMA_VERSION}`)).toHaveLength(1);
    expect(
      lines.filter((line) => line === `migrated ${SCHEMA_VERSION} ${SCHEMA_VERSION}`),
    ).toHaveLength(4);
    for (const exit of await Promise.all(children.map((c) => c.exited)))
      expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
    expect(await versions('five_processes')).toEqual(ALL_VERSIONS);
  }, 120_000);

  it('take a schema at version 1, as the first release left it, to the latest, leases included', async () => {
    expect(await applyMigrations(db.pool, 'from_v1', MIGRATIONS.slice(0, 1))).toEqual({
      from: 0,
      to: 1,
    });
    const old = new PostgresCheckpointStore({ pool: db.pool, schema: 'from_v1' });
    // A store of this version migrates before its first call: write version 1 rows by hand.
    await db.pool.query(
      `INSERT INTO from_v1.threads (thread_id, workflow_id, workflow_version, status, step,
         updated_at, last_checkpoint_id, checkpoint_count, message_count, log_count)
       VALUES ('old', 'w', '1', 'PAUSED', 3, 'then', 'old:1', 0, 0, 0)`,
    );
    expect(await tables('from_v1')).not.toContain('leases');
    expect(await old.migrate()).toEqual({ from: 1, to: SCHEMA_VERSION });
    expect(await versions('from_v1')).toEqual(ALL_VERSIONS);
    expect(await old.listThreads()).toMatchObject([{ threadId: 'old', status: 'PAUSED' }]);
    expect(await old.acquireLease('old', { owner: 'a', expiresAt: 10, now: 0 })).toBe(true);
    expect(await old.acquireLease('old', { owner: 'b', expiresAt: 10, now: 5 })).toBe(false);
  });

  it('take a schema at version 2 with threads in it to version 3: they load, fork and go as any', async () => {
    expect(await applyMigrations(db.pool, 'from_v2', MIGRATIONS.slice(0, 2))).toEqual({
      from: 0,
      to: 2,
    });
    // A store of this version migrates before its first call: write the rows a version 2 store
    // wrote, by hand (a thread, its checkpoint, three messages and a log entry).
    const { state } = makeCheckpoint('old', 1, { messages: 0, log: 0 });
    await db.pool.query(
      `WITH
         thread AS (
           INSERT INTO from_v2.threads (thread_id, workflow_id, workflow_version, status, step,
             updated_at, last_checkpoint_id, checkpoint_count, message_count, log_count)
           VALUES ('old', 'w', '1', 'RUNNING', 1, 'then', 'old:1', 1, 3, 1) RETURNING id),
         checkpoint AS (
           INSERT INTO from_v2.checkpoints (thread, checkpoint_id, sequence, parent_id, created_at,
             status, step, current_node_id, message_count, log_count, state)
           SELECT id, 'old:1', 1, NULL, 'then', 'RUNNING', 1, 'n', 3, 1, $1 FROM thread),
         log AS (
           INSERT INTO from_v2.log_entries (thread, position, body)
           SELECT id, 0, '{"kind":"note"}' FROM thread)
       INSERT INTO from_v2.messages (thread, position, body)
       SELECT id, n - 1, '{"role":"user","content":"m' || n || '"}'
       FROM thread, generate_series(1, 3) AS n`,
      [JSON.stringify(state)],
    );
    // Threads that waited under version 2: a sleep, a pause with a deadline, and one whose wait a
    // resume had claimed already (nothing to wake).
    const T0 = Date.parse('2026-03-01T00:00:00.000Z');
    const waiting = [
      ['sleeper', 'WAITING', { kind: 'sleep', nodeId: 'n', wakeAt: '2026-03-01T00:01:00.000Z' }],
      [
        'asker',
        'PAUSED',
        { kind: 'user-input', nodeId: 'n', deadline: '2026-03-01T00:01:30.500Z' },
      ],
      [
        'claimed',
        'WAITING',
        { kind: 'sleep', nodeId: 'n', wakeAt: '2026-03-01T00:00:10.000Z', answer: { input: null } },
      ],
      ['payer', 'WAITING', { kind: 'event', nodeId: 'n', event: 'payment' }],
      ['paid', 'WAITING', { kind: 'event', nodeId: 'n', event: 'payment', answer: { input: 1 } }],
    ] as const;
    for (const [threadId, status, pending] of waiting)
      await db.pool.query(
        `WITH thread AS (
           INSERT INTO from_v2.threads (thread_id, workflow_id, workflow_version, status, step,
             updated_at, last_checkpoint_id, checkpoint_count, message_count, log_count)
           VALUES ($1, 'w', '1', $2, 1, 'then', $1 || ':1', 1, 0, 0) RETURNING id)
         INSERT INTO from_v2.checkpoints (thread, checkpoint_id, sequence, parent_id, created_at,
           status, step, current_node_id, message_count, log_count, state)
         SELECT id, $1 || ':1', 1, NULL, 'then', $2, 1, 'n', 0, 0, $3 FROM thread`,
        [threadId, status, JSON.stringify({ ...state, threadId, status, pending })],
      );
    const store = new PostgresCheckpointStore({ pool: db.pool, schema: 'from_v2' });
    expect(await store.migrate()).toEqual({ from: 2, to: SCHEMA_VERSION });
    expect(await store.listWakes()).toEqual([
      { threadId: 'sleeper', at: T0 + 60_000 },
      { threadId: 'asker', at: T0 + 90_500 },
    ]);
    expect(await store.listWaiting('payment')).toEqual(['payer']);
    expect(await versions('from_v2')).toEqual(ALL_VERSIONS);
    const stored = [1, 2, 3].map((n) => ({ role: 'user', content: `m${n}` }));
    const old = (await store.load('old'))!;
    expect(old.conversation).toEqual({ version: 1, messages: stored, log: [{ kind: 'note' }] });
    expect(old.state).toEqual(state);
    expect((await store.listThreads())[0]).toMatchObject({ threadId: 'old', checkpoints: 1 });

    // It runs on, is forked, and is deleted with the fork keeping what it shared.
    const added = { role: 'assistant', content: 'a' };
    await store.save(makeCheckpoint('old', 2, { messages: 3, log: 1 }, [added]));
    await store.save({
      ...makeCheckpoint('fork', 1, { messages: 4, log: 1 }),
      forkOf: { threadId: 'old', checkpointId: 'old:2' },
    });
    expect(await store.delete('old')).toBe(true);
    expect((await store.load('fork'))!.conversation).toEqual({
      version: 1,
      messages: [...stored, added],
      log: [{ kind: 'note' }],
    });
  });

  it('refuse a schema a newer version of the package migrated, changing nothing', async () => {
    const store = new PostgresCheckpointStore({ pool: db.pool, schema: 'from_future' });
    await store.migrate();
    await db.pool.query(
      `INSERT INTO from_future.migrations (version, description) VALUES ($1, 'future')`,
      [SCHEMA_VERSION + 1],
    );
    const later = new PostgresCheckpointStore({ pool: db.pool, schema: 'from_future' });
    await expect(later.listThreads()).rejects.toMatchObject({
      name: 'StoreError',
      code: 'STORE_TOO_NEW',
      details: { schema: 'from_future', found: SCHEMA_VERSION + 1, supported: SCHEMA_VERSION },
    });
    await expect(later.migrate()).rejects.toMatchObject({ code: 'STORE_TOO_NEW' });
    expect(await versions('from_future')).toEqual([...ALL_VERSIONS, SCHEMA_VERSION + 1]);
  });

  it('are listed in order', () => {
    expect(() => checkMigrationOrder(MIGRATIONS)).not.toThrow();
    expect(() => checkMigrationOrder([{ version: 2, description: 'gap', sql: () => '' }])).toThrow(
      /out of order/,
    );
  });
});
