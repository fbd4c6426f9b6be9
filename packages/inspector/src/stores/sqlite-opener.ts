import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { notAStore, storeMissing } from '../errors/store-errors.js';
import type { StoreOpener } from './inspector-store.js';
import { notSkeinSqliteFile } from './skein-sqlite-file.js';

/** A SQLite file: any location that is not a URL. */
export const sqliteOpener: StoreOpener = {
  describes: 'a SQLite file path (.skein/threads.db)',
  matches: (location) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(location),
  open: async (location) => {
    // SqliteCheckpointStore creates a missing file and adopts an empty one (or an empty SQLite
    // database) as a new store: a typo in --db must leave nothing behind and change nothing.
    if (!existsSync(location)) throw storeMissing(resolve(location));
    const problem = notSkeinSqliteFile(location);
    if (problem !== undefined) throw notAStore(resolve(location), problem);
    const store = new SqliteCheckpointStore({ filename: location });
    return { store, close: async () => store.close() };
  },
};
