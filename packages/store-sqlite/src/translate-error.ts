import { SkeinError } from '@skein/spec';
import Database from 'better-sqlite3';
import { StoreBusyError } from './errors/store-busy-error.js';
import { StoreCorruptError } from './errors/store-corrupt-error.js';
import { StoreIoError } from './errors/store-io-error.js';
import { StoreNativeMissingError } from './errors/store-native-missing-error.js';
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
 * Turns what SQLite or the file system threw into a typed Skein error naming the file; Skein errors
 * and programming errors pass through unchanged.
 */
export function translateError(error: unknown, context: ErrorContext): unknown {
  if (SkeinError.isInstance(error)) return error;
  const { filename, operation } = context;
  if (isNativeBindingError(error)) return new StoreNativeMissingError(filename, error);
  const code = errorCode(error);
  if (error instanceof Database.SqliteError) {
    if (code?.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
      return new StoreCorruptError(filename, error.message, {
        cause: error,
        details: { operation },
      });
    // Our writes only break a constraint when rows exist that the thread's counts deny.
    if (code?.startsWith('SQLITE_CONSTRAINT'))
      return new StoreCorruptError(
        filename,
        `stored rows contradict each other (${error.message})`,
        {
          cause: error,
          details: { operation },
        },
      );
    if (code?.startsWith('SQLITE_BUSY') || code?.startsWith('SQLITE_LOCKED'))
      return new StoreBusyError(filename, operation, context.busyTimeoutMs, error);
    return new StoreIoError(filename, operation, error, code);
  }
  // File-system errors (ENOENT, EACCES…), and better-sqlite3's TypeError for a missing directory.
  if (code !== undefined || (error instanceof TypeError && /directory/i.test(error.message)))
    return new StoreIoError(filename, operation, error, code);
  return error;
}
