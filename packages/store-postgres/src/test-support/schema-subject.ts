import type { CheckpointStore } from '@skein/core';
import type { ConformanceSubject } from '@skein/core/conformance';
import { PostgresCheckpointStore } from '../postgres-checkpoint-store.js';

/**
 * A conformance subject on its own schema of the server's database, with `reopen` giving a store
 * with a pool of its own on that schema (as a new process would open it).
 */
export function schemaSubject(connectionString: string, schema: string): ConformanceSubject {
  const opened: CheckpointStore[] = [];
  return {
    store: new PostgresCheckpointStore({ connectionString, schema }),
    async reopen() {
      const store = new PostgresCheckpointStore({ connectionString, schema });
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened) await store.close?.();
    },
  };
}
