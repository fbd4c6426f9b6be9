import { runCheckpointStoreConformance } from '@skein/core/conformance';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { schemaSubject } from './test-support/schema-subject.js';
import { startTestPostgres, type TestPostgres } from './testing/index.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server?.stop());

let counter = 0;

// Each test gets a schema of its own in the file's database.
runCheckpointStoreConformance('PostgresCheckpointStore (connection string, reopened)', async () =>
  schemaSubject(server.connectionString, `conformance_${++counter}`),
);

runCheckpointStoreConformance('PostgresCheckpointStore (a pool the caller owns)', async () => {
  const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
  return {
    store: new PostgresCheckpointStore({ pool, schema: `pool_${++counter}` }),
    async cleanup() {
      await pool.end();
    },
  };
});
