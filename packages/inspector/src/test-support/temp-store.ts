import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteCheckpointStore } from '@skein/store-sqlite';

/** A SQLite store in a fresh temporary folder; `dispose` closes it and removes the folder. */
export function tempStore(): {
  store: SqliteCheckpointStore;
  filename: string;
  dir: string;
  dispose(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'skein-inspector-'));
  const filename = join(dir, 'threads.db');
  const store = new SqliteCheckpointStore({ filename });
  return {
    store,
    filename,
    dir,
    dispose: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
