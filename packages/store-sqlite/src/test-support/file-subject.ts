import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointStore } from '@skein/core';
import type { ConformanceSubject } from '@skein/core/conformance';
import { openStore } from './driver.js';

/**
 * A conformance subject on a new database file, with `reopen` giving a second connection on the
 * same file (as a new process would open it); cleanup closes them and removes the file.
 */
export function fileSubject(prefix: string): ConformanceSubject {
  const dir = mkdtempSync(join(tmpdir(), prefix));
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
}
