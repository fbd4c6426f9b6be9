import { join } from 'node:path';
import type { SqliteDriverName } from '@skein/store-sqlite';
import Database from 'better-sqlite3';

// The two SQLite libraries the store runs on, opened directly for the floors (what the database
// itself commits), so each driver's store is compared with its own floor.

/** What the floor needs of a connection: better-sqlite3's and node:sqlite's both have it. */
export interface FloorDatabase {
  exec(sql: string): void;
  prepare(sql: string): { run(...params: string[]): unknown };
  close(): void;
}

interface NodeSqlite {
  DatabaseSync: new (path: string) => FloorDatabase;
}

/**
 * The drivers to measure, in order: BENCH_SQLITE_DRIVER's comma-separated list
 * (`node:sqlite,better-sqlite3` runs node:sqlite first), or every driver this Node has.
 */
export function benchDrivers(): SqliteDriverName[] {
  const nodeSqlite = process.getBuiltinModule?.('node:sqlite') !== undefined;
  const wanted = process.env.BENCH_SQLITE_DRIVER;
  if (wanted === undefined || wanted === '')
    return nodeSqlite ? ['better-sqlite3', 'node:sqlite'] : ['better-sqlite3'];
  return wanted.split(',').map((name) => {
    if (name !== 'better-sqlite3' && name !== 'node:sqlite')
      throw new Error(`BENCH_SQLITE_DRIVER lists better-sqlite3 or node:sqlite, not ${name}`);
    if (name === 'node:sqlite' && !nodeSqlite)
      throw new Error(`node:sqlite needs Node 22.13 or later (this is ${process.version})`);
    return name;
  });
}

/** A new database file in `dir` on `driver`. */
export function openFloorDatabase(driver: SqliteDriverName, dir: string): FloorDatabase {
  const filename = join(dir, `floor-${driver.replace(':', '-')}.db`);
  if (driver === 'better-sqlite3') return new Database(filename);
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as NodeSqlite;
  return new DatabaseSync(filename);
}
