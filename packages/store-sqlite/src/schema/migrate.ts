import { checkMigrationOrder, type MigrationResult, storeTooNew } from '@skein/core/store-kit';
import type Database from 'better-sqlite3';
import { sqliteStore, storeForeign } from '../errors/store-errors.js';
import type { Migration } from './migrations.js';

export function readVersion(db: Database.Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

export function readApplicationId(db: Database.Database): number {
  return Number(db.pragma('application_id', { simple: true }));
}

/**
 * Brings the database to the last version of `migrations` in one IMMEDIATE transaction: the
 * version is read under the write lock (another process may have migrated meanwhile), every
 * pending migration runs, `user_version` is set; any failure rolls everything back. A database
 * newer than the list is refused, never downgraded.
 */
export function applyMigrations(
  db: Database.Database,
  migrations: readonly Migration[],
  options: { readonly filename: string; readonly applicationId: number },
): MigrationResult {
  checkMigrationOrder(migrations);
  const latest = migrations.length;
  // The common case, settled without taking the write lock.
  if (readVersion(db) === latest && readApplicationId(db) === options.applicationId)
    return { from: latest, to: latest };
  const run = db.transaction((): MigrationResult => {
    const from = readVersion(db);
    if (from > latest) throw storeTooNew(sqliteStore(options.filename), from, latest);
    const applicationId = readApplicationId(db);
    if (from === 0) db.pragma(`application_id = ${options.applicationId | 0}`);
    else if (applicationId !== options.applicationId)
      throw storeForeign(options.filename, [
        `application_id is ${applicationId}, expected ${options.applicationId}`,
      ]);
    for (const migration of migrations.slice(from)) db.exec(migration.sql);
    if (latest !== from) db.pragma(`user_version = ${latest}`);
    return { from, to: latest };
  });
  return run.immediate();
}
