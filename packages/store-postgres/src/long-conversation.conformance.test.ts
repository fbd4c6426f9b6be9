import type { CheckpointStore } from '@skein/core';
import { runLongConversationConformance } from '@skein/core/conformance';
import { afterAll, beforeAll } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { startTestPostgres, type TestPostgres } from './testing/index.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server?.stop());

// Issue 45's 1,000 turns through summaries, read back through a second pool.
runLongConversationConformance('PostgresCheckpointStore', async () => {
  const { connectionString } = server;
  const opened: CheckpointStore[] = [];
  return {
    store: new PostgresCheckpointStore({ connectionString, schema: 'long_conversation' }),
    async reopen() {
      const store = new PostgresCheckpointStore({ connectionString, schema: 'long_conversation' });
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened) await store.close?.();
    },
  };
});
