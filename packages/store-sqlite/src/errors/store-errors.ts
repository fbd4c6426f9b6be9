import type { StoreIdentity, StoreKitErrorCode } from '@skein/core/store-kit';
import { StoreError } from '@skein/spec';

/**
 * The codes of the `StoreError`s (from `@skein/spec`) this store throws: every store's
 * (`STORE_CLOSED`, `STORE_CORRUPT`, `STORE_TOO_NEW`, `STORE_UNSERIALIZABLE`) and SQLite's own:
 * - `STORE_BUSY`: another connection held the database lock for longer than the busy timeout;
 *   nothing was written. The only retryable one: the lock is released when the other writer
 *   commits.
 * - `STORE_FOREIGN`: a valid SQLite database that is not a Skein checkpoint store (another
 *   application's file), or one whose tables do not have the shape its schema version promises.
 *   It is never written to.
 * - `STORE_IO`: SQLite could not open, read or write the file (missing directory, no permission,
 *   disk full, a read-only file system, …).
 * - `STORE_NATIVE_MISSING`: better-sqlite3's native addon could not be loaded: it was never built
 *   (installed with `--ignore-scripts`, a failed compile) or was built for another Node version or
 *   platform.
 *
 * Every one has the absolute `filename` in its `details` and its message.
 */
export type SqliteStoreErrorCode =
  | StoreKitErrorCode
  | 'STORE_BUSY'
  | 'STORE_FOREIGN'
  | 'STORE_IO'
  | 'STORE_NATIVE_MISSING';

/** The database file, as the shared errors (`STORE_CORRUPT`, …) name it. */
export function sqliteStore(filename: string): StoreIdentity {
  return {
    name: `Checkpoint database ${filename}`,
    details: { filename },
    packageName: '@skein/store-sqlite',
  };
}

/** `STORE_BUSY`, retryable; `details`: `filename`, `operation`, `timeoutMs`. */
export function storeBusy(
  filename: string,
  operation: string,
  timeoutMs: number,
  cause: unknown,
): StoreError<'STORE_BUSY'> {
  return new StoreError(
    'STORE_BUSY',
    `Checkpoint database ${filename} stayed locked by another connection for more than ${timeoutMs} ms during ${operation}; nothing was written, retry later or raise busyTimeoutMs`,
    // The lock is released when the other writer commits: the same call can succeed later.
    { cause, details: { filename, operation, timeoutMs }, retryable: true },
  );
}

/** `STORE_FOREIGN`; `details`: `filename`, `problems` (what did not match, one line each). */
export function storeForeign(
  filename: string,
  problems: readonly string[],
): StoreError<'STORE_FOREIGN'> {
  return new StoreError(
    'STORE_FOREIGN',
    `${filename} is not a Skein checkpoint database: ${problems.join('; ')}`,
    { details: { filename, problems } },
  );
}

/** `STORE_IO`; `details`: `filename`, `operation`, `sqliteCode` (SQLite's, e.g. `SQLITE_CANTOPEN`). */
export function storeIo(
  filename: string,
  operation: string,
  cause: unknown,
  sqliteCode?: string,
): StoreError<'STORE_IO'> {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StoreError(
    'STORE_IO',
    `Checkpoint database ${filename} failed during ${operation}: ${reason}`,
    { cause, details: { filename, operation, sqliteCode } },
  );
}

const FIX =
  'better-sqlite3 builds it in its install script, so allow that script (pnpm: list "better-sqlite3" ' +
  'in pnpm.onlyBuiltDependencies and run `pnpm rebuild better-sqlite3`; npm: do not install with ' +
  '--ignore-scripts, or run `npm rebuild better-sqlite3`). When no prebuilt binary can be ' +
  'downloaded for this platform and Node version the script compiles one, which needs python3, ' +
  'make and a C++ compiler (g++ or clang).';

/** `STORE_NATIVE_MISSING`, its message saying how to fix it; `details`: `filename`. */
export function storeNativeMissing(
  filename: string,
  cause: unknown,
): StoreError<'STORE_NATIVE_MISSING'> {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return new StoreError(
    'STORE_NATIVE_MISSING',
    `Cannot open checkpoint database ${filename}: better-sqlite3's native binding did not load (${reason}). ${FIX}`,
    { cause, details: { filename } },
  );
}
