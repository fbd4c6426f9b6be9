import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointStore } from '@skein/core';
import { runCheckpointStoreConformance } from '@skein/core/conformance';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';

runCheckpointStoreConformance('SqliteCheckpointStore (file, reopened)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-conformance-'));
  const filename = join(dir, 'threads.db');
  const opened: CheckpointStore[] = [];
  return {
    store: new SqliteCheckpointStore({ filename }),
    // A second connection on the same file, as a new process would open it.
    async reopen() {
      const store = new SqliteCheckpointStore({ filename });
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened) await store.close?.();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

runCheckpointStoreConformance('SqliteCheckpointStore (:memory:)', async () => ({
  store: new SqliteCheckpointStore({ filename: ':memory:' }),
}));
