import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointStore } from '@skein/core';
import { runLongConversationConformance } from '@skein/core/conformance';
import { DRIVER, openStore } from './test-support/driver.js';

// Issue 45's 1,000 turns through summaries, on a file read back by a second connection.
runLongConversationConformance(`SqliteCheckpointStore on ${DRIVER}`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-long-'));
  const filename = join(dir, 'threads.db');
  const opened: CheckpointStore[] = [];
  return {
    store: openStore({ filename }),
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
