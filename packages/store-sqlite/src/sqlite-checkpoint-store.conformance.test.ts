import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointStore } from '@skein/core';
import { runCheckpointStoreConformance } from '@skein/core/conformance';
import { DRIVER, openStore } from './test-support/driver.js';

runCheckpointStoreConformance(`SqliteCheckpointStore on ${DRIVER} (file, reopened)`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-conformance-'));
  const filename = join(dir, 'threads.db');
  const opened: CheckpointStore[] = [];
  return {
    store: openStore({ filename }),
    // A second connection on the same file, as a new process would open it.
    async reopen() {
      const store = openStore({ filename });
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened) await store.close?.();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

runCheckpointStoreConformance(`SqliteCheckpointStore on ${DRIVER} (:memory:)`, async () => ({
  store: openStore({ filename: ':memory:' }),
}));
