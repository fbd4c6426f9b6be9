import { runLongConversationConformance } from '@skein/core/conformance';
import { afterAll, beforeAll } from 'vitest';
import { schemaSubject } from './test-support/schema-subject.js';
import { startTestPostgres, type TestPostgres } from './testing/index.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server?.stop());

// Issue 45's 1,000 turns through summaries, read back through a second pool.
runLongConversationConformance('PostgresCheckpointStore', async () =>
  schemaSubject(server.connectionString, 'long_conversation'),
);
