import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { StoreMissingError } from '../errors/store-missing-error.js';
import type { StoreOpener } from './inspector-store.js';

/** A SQLite file: any location that is not a URL. */
export const sqliteOpener: StoreOpener = {
  describes: 'a SQLite file path (.skein/threads.db)',
  matches: (location) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(location),
  open: async (location) => {
    // SqliteCheckpointStore creates a missing file; a typo in --db should not leave one behind.
    if (!existsSync(location)) throw new StoreMissingError(resolve(location));
    const store = new SqliteCheckpointStore({ filename: location });
    return { store, close: async () => store.close() };
  },
};
