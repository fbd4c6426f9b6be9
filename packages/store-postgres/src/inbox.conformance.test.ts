import { runInboxConformance } from '@skein/core/conformance';
import { afterAll, beforeAll } from 'vitest';
import { schemaSubject } from './test-support/schema-subject.js';
import { startTestPostgres, type TestPostgres } from './testing/index.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server?.stop());

let counter = 0;

runInboxConformance('PostgresCheckpointStore', async () =>
  schemaSubject(server.connectionString, `inbox_${++counter}`),
);
