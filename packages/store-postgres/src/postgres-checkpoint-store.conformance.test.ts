import type { CheckpointStore } from '@skein/core';
import { runCheckpointStoreConformance } from '@skein/core/conformance';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { startTestPostgres, type TestPostgres } from './testing/index.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server?.stop());

let counter = 0;

// Each test gets a schema of its own in the file's database.
runCheckpointStoreConformance('PostgresCheckpointStore (connection string, reopened)', async () => {
  const schema = `conformance_${++counter}`;
  const { connectionString } = server;
  const opened: CheckpointStore[] = [];
  return {
    store: new PostgresCheckpointStore({ connectionString, schema }),
    // A second store with its own pool on the same schema, as a new process would open it.
    async reopen() {
      const store = new PostgresCheckpointStore({ connectionString, schema });
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened) await store.close?.();
    },
  };
});

runCheckpointStoreConformance('PostgresCheckpointStore (a pool the caller owns)', async () => {
  const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
  return {
    store: new PostgresCheckpointStore({ pool, schema: `pool_${++counter}` }),
    async cleanup() {
      await pool.end();
    },
  };
});
