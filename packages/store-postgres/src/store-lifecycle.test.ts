import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { freePort } from './testing/free-port.js';
import { startTestPostgres, type TestPostgres } from './testing/index.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server?.stop());

describe('a store’s connections', () => {
  it('close() ends the pool the store opened, and later calls fail with STORE_CLOSED', async () => {
    const store = new PostgresCheckpointStore({
      connectionString: server.connectionString,
      schema: 'owned',
    });
    await store.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }));
    await store.close();
    await store.close();
    await expect(store.load('t')).rejects.toMatchObject({
      name: 'StoreError',
      code: 'STORE_CLOSED',
      details: { schema: 'owned', operation: 'load' },
    });
    await expect(store.migrate()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });

  it('close() leaves a pool the caller passed open', async () => {
    const pool = new pg.Pool({ connectionString: server.connectionString });
    const store = new PostgresCheckpointStore({ pool, schema: 'borrowed' });
    await store.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }));
    await store.close();
    await expect(store.listThreads()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    expect((await pool.query('SELECT count(*)::int AS n FROM borrowed.threads')).rows).toEqual([
      { n: 1 },
    ]);
    await pool.end();
  });

  it('a server that cannot be reached fails calls with a retryable STORE_DATABASE', async () => {
    const port = await freePort();
    const store = new PostgresCheckpointStore({
      connectionString: `postgres://nobody:x@127.0.0.1:${port}/none`,
      schema: 'unreachable',
    });
    const error = await store.listThreads().catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'StoreError',
      code: 'STORE_DATABASE',
      details: { schema: 'unreachable', operation: 'listThreads', sqlState: 'ECONNREFUSED' },
      retryable: true,
    });
    await store.close();
  });

  it('a user without rights fails with a STORE_DATABASE naming the SQLSTATE, not retryable', async () => {
    // Roles belong to the whole server (maybe a shared one, SKEIN_TEST_PG_URL): a fresh name.
    const role = `reader_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: server.connectionString });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'reader'`);
    const url = new URL(server.connectionString);
    url.username = role;
    url.password = 'reader';
    const store = new PostgresCheckpointStore({
      connectionString: url.toString(),
      schema: 'denied',
    });
    const error = await store.save(makeCheckpoint('t', 1, { messages: 0, log: 0 })).catch((e) => e);
    expect(error).toMatchObject({
      code: 'STORE_DATABASE',
      details: { operation: 'save', sqlState: '42501' },
      retryable: false,
    });
    await store.close();
    // Given a schema of its own, the same user migrates it and works in it.
    await admin.query(`CREATE SCHEMA granted AUTHORIZATION ${role}`);
    const granted = new PostgresCheckpointStore({
      connectionString: url.toString(),
      schema: 'granted',
    });
    await granted.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }));
    expect(await granted.listThreads()).toMatchObject([{ threadId: 't' }]);
    await granted.close();
    await admin.query(`DROP OWNED BY ${role}`);
    await admin.query(`DROP ROLE ${role}`);
    await admin.end();
  });
});
