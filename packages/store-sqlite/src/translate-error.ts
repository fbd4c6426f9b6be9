import { storeCorrupt } from '@skein/core/store-kit';
import { SkeinError } from '@skein/spec';
import type { SqliteDriver } from './driver/connection.js';
import { sqliteStore, storeBusy, storeIo, storeNativeMissing } from './errors/store-errors.js';

export interface ErrorContext {
  readonly driver: SqliteDriver;
  readonly filename: string;
  readonly operation: string;
  readonly busyTimeoutMs: number;
}

/** The errno name (`ENOENT`, `EACCES`…) of a file-system error. */
function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' && /^E[A-Z0-9]+$/.test(error.code) ? error.code : undefined;
}

/**
 * Turns what SQLite (through either driver) or the file system threw into a `StoreError` naming
 * the file; Skein errors and programming errors pass through unchanged.
 */
export function translateError(error: unknown, context: ErrorContext): unknown {
  if (SkeinError.isInstance(error)) return error;
  const { driver, filename, operation } = context;
  if (driver.failedToLoad(error)) return storeNativeMissing(filename, error);
  const code = driver.sqliteCode(error);
  if (code !== undefined) {
    const message = (error as Error).message;
    if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
      return storeCorrupt(sqliteStore(filename), message, { cause: error, details: { operation } });
    // Our writes only break a constraint when rows exist that the thread's counts deny.
    if (code.startsWith('SQLITE_CONSTRAINT'))
      return storeCorrupt(sqliteStore(filename), `stored rows contradict each other (${message})`, {
        cause: error,
        details: { operation },
      });
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
      return storeBusy(filename, operation, context.busyTimeoutMs, error);
    return storeIo(filename, operation, error, code);
  }
  // File-system errors (ENOENT, EACCES…), and better-sqlite3's TypeError for a missing directory.
  const errno = errnoCode(error);
  if (errno !== undefined || (error instanceof TypeError && /directory/i.test(error.message)))
    return storeIo(filename, operation, error, errno);
  return error;
}
