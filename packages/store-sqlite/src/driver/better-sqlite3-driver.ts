import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteConnection, SqliteDriver, SqlValue } from './connection.js';
import { isNativeBindingError } from './native-binding.js';

/** better-sqlite3's `Database` class (its default export). */
export type BetterSqlite3Class = typeof BetterSqlite3;

/** Whether `error` says the package `name` itself cannot be found (not one of its own imports). */
function isMissingPackage(error: unknown, name: string): boolean {
  return (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' &&
    error.message.startsWith(`Cannot find module '${name}'`)
  );
}

/**
 * better-sqlite3 as the module at `from` would import it, or undefined when the package is not
 * installed there. Loaded on demand rather than imported, because it is an optional peer: on Node
 * 22.13 or later the store runs on node:sqlite without it. Its addon loads later, with the first
 * connection.
 */
export function loadBetterSqlite3(from: string): BetterSqlite3Class | undefined {
  try {
    return createRequire(from)('better-sqlite3') as BetterSqlite3Class;
  } catch (error) {
    if (isMissingPackage(error, 'better-sqlite3')) return undefined;
    throw error;
  }
}

function connection(db: BetterSqlite3.Database): SqliteConnection {
  return {
    driver: 'better-sqlite3',
    get isOpen() {
      return db.open;
    },
    // better-sqlite3's statements already have the shape the store uses: no wrapper on the hot path.
    prepare: <P extends SqlValue[], Row>(sql: string) => db.prepare<P, Row>(sql),
    column: <P extends SqlValue[], Value>(sql: string) => db.prepare<P, Value>(sql).pluck(),
    exec: (sql) => {
      db.exec(sql);
    },
    close: () => {
      db.close();
    },
  };
}

export function betterSqlite3Driver(Database: BetterSqlite3Class): SqliteDriver {
  return {
    name: 'better-sqlite3',
    open: (filename, options = {}) =>
      connection(
        new Database(filename, {
          readonly: options.readonly ?? false,
          fileMustExist: options.mustExist ?? false,
        }),
      ),
    sqliteCode: (error) => (error instanceof Database.SqliteError ? error.code : undefined),
    failedToLoad: isNativeBindingError,
  };
}
