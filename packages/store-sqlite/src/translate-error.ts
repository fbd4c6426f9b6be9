import { storeCorrupt } from '@skein/core/store-kit';
import { SkeinError } from '@skein/spec';
import Database from 'better-sqlite3';
import { sqliteStore, storeBusy, storeIo, storeNativeMissing } from './errors/store-errors.js';
import { isNativeBindingError } from './native-binding.js';

export interface ErrorContext {
  readonly filename: string;
  readonly operation: string;
  readonly busyTimeoutMs: number;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Turns what SQLite or the file system threw into a `StoreError` naming the file; Skein errors
 * and programming errors pass through unchanged.
 */
export function translateError(error: unknown, context: ErrorContext): unknown {
  if (SkeinError.isInstance(error)) return error;
  const { filename, operation } = context;
  if (isNativeBindingError(error)) return storeNativeMissing(filename, error);
  const code = errorCode(error);
  if (error instanceof Database.SqliteError) {
    if (code?.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
      return storeCorrupt(sqliteStore(filename), error.message, {
        cause: error,
        details: { operation },
      });
    // Our writes only break a constraint when rows exist that the thread's counts deny.
    if (code?.startsWith('SQLITE_CONSTRAINT'))
      return storeCorrupt(
        sqliteStore(filename),
        `stored rows contradict each other (${error.message})`,
        { cause: error, details: { operation } },
      );
    if (code?.startsWith('SQLITE_BUSY') || code?.startsWith('SQLITE_LOCKED'))
      return storeBusy(filename, operation, context.busyTimeoutMs, error);
    return storeIo(filename, operation, error, code);
  }
  // File-system errors (ENOENT, EACCES…), and better-sqlite3's TypeError for a missing directory.
  if (code !== undefined || (error instanceof TypeError && /directory/i.test(error.message)))
    return storeIo(filename, operation, error, code);
  return error;
}
