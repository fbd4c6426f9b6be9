import { checkMigrationOrder, type MigrationResult, storeTooNew } from '@skein/core/store-kit';
import { pragma, type SqliteConnection } from '../driver/connection.js';
import { Transactions } from '../driver/transactions.js';
import { sqliteStore, storeForeign } from '../errors/store-errors.js';
import type { Migration } from './migrations.js';

export function readVersion(db: SqliteConnection): number {
  return Number(pragma(db, 'user_version'));
}

export function readApplicationId(db: SqliteConnection): number {
  return Number(pragma(db, 'application_id'));
}

/**
 * Brings the database to the last version of `migrations` in one IMMEDIATE transaction: the
 * version is read under the write lock (another process may have migrated meanwhile), every
 * pending migration runs, `user_version` is set; any failure rolls everything back. A database
 * newer than the list is refused, never downgraded.
 */
export function applyMigrations(
  db: SqliteConnection,
  migrations: readonly Migration[],
  options: { readonly filename: string; readonly applicationId: number },
): MigrationResult {
  checkMigrationOrder(migrations);
  const latest = migrations.length;
  // The common case, settled without taking the write lock.
  if (readVersion(db) === latest && readApplicationId(db) === options.applicationId)
    return { from: latest, to: latest };
  return new Transactions(db).immediate((): MigrationResult => {
    const from = readVersion(db);
    if (from > latest) throw storeTooNew(sqliteStore(options.filename), from, latest);
    const applicationId = readApplicationId(db);
    if (from === 0) db.exec(`PRAGMA application_id = ${options.applicationId | 0}`);
    else if (applicationId !== options.applicationId)
      throw storeForeign(options.filename, [
        `application_id is ${applicationId}, expected ${options.applicationId}`,
      ]);
    for (const migration of migrations.slice(from)) db.exec(migration.sql);
    if (latest !== from) db.exec(`PRAGMA user_version = ${latest}`);
    return { from, to: latest };
  });
}
