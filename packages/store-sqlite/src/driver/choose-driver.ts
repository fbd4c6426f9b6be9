import { storeDriverMissing, storeNativeMissing } from '../errors/store-errors.js';
import { betterSqlite3Driver, loadBetterSqlite3 } from './better-sqlite3-driver.js';
import type { SqliteDriver, SqliteDriverName } from './connection.js';
import { loadNodeSqlite } from './node-sqlite.js';
import { nodeSqliteDriver } from './node-sqlite-driver.js';

/**
 * The driver the store opens `filename` with: the one `choice` names, or by default better-sqlite3
 * when that package is installed and node:sqlite when it is not. Installed means chosen, so an app
 * that has better-sqlite3 keeps it whatever Node it moves to; one that never installed it (no
 * compiler, no 138 s build) runs on node:sqlite. `from` is the module better-sqlite3 is looked up
 * from: this package, unless a test asks about another folder.
 */
export function chooseDriver(
  choice: SqliteDriverName | undefined,
  filename: string,
  from: string = import.meta.url,
): SqliteDriver {
  if (choice !== 'node:sqlite') {
    let Database: ReturnType<typeof loadBetterSqlite3>;
    try {
      Database = loadBetterSqlite3(from);
    } catch (error) {
      // Installed but broken (a dependency of it missing): not a reason to pick another driver.
      throw storeNativeMissing(filename, error);
    }
    if (Database !== undefined) return betterSqlite3Driver(Database);
    if (choice === 'better-sqlite3') throw storeDriverMissing(filename, 'better-sqlite3');
  }
  const sqlite = loadNodeSqlite();
  if (sqlite !== undefined) return nodeSqliteDriver(sqlite);
  throw storeDriverMissing(filename, choice === 'node:sqlite' ? 'node:sqlite' : 'any');
}
