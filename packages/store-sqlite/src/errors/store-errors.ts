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
 * - `STORE_NATIVE_MISSING`: no SQLite driver could be loaded: better-sqlite3's native addon was
 *   never built (installed with `--ignore-scripts`, a failed compile) or was built for another Node
 *   version or platform; better-sqlite3 is not installed and this Node has no node:sqlite (before
 *   22.13); or the driver asked for is not there. `details.driver` names the one that was missing.
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

/** How better-sqlite3 gets its addon, and what that needs. */
const BUILD =
  'better-sqlite3 builds its native addon in its install script, so allow that script (pnpm: list ' +
  '"better-sqlite3" in pnpm.onlyBuiltDependencies and run `pnpm rebuild better-sqlite3`; npm: do ' +
  'not install with --ignore-scripts, approve it on npm 11 with `npm install-scripts approve ' +
  'better-sqlite3`, or run `npm rebuild better-sqlite3`). When no prebuilt binary can be ' +
  'downloaded for this platform and Node version the script compiles one, which needs python3, ' +
  'make and a C++ compiler (g++ or clang).';

/** The one better-sqlite3 the store is tested with, as a range to install. */
const INSTALL = 'npm install better-sqlite3@^12.11.1';

/**
 * `STORE_NATIVE_MISSING` when better-sqlite3's addon did not load, its message saying how to fix
 * it; `details`: `filename`, `driver` (`'better-sqlite3'`).
 */
export function storeNativeMissing(
  filename: string,
  cause: unknown,
): StoreError<'STORE_NATIVE_MISSING'> {
  // The bindings package lists every path it tried after "Tried:"; Node's ABI message spans lines.
  const text = cause instanceof Error ? cause.message : String(cause);
  const reason = text
    .split(' Tried:')[0]!
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return new StoreError(
    'STORE_NATIVE_MISSING',
    `Cannot open checkpoint database ${filename}: better-sqlite3's native binding did not load (${reason}). ${BUILD} On Node 22.13 or later, driver 'node:sqlite' needs no addon.`,
    { cause, details: { filename, driver: 'better-sqlite3' } },
  );
}

/** Why no driver could be used: the one asked for, or (by default) neither, is missing. */
export type MissingDriver = 'better-sqlite3' | 'node:sqlite' | 'any';

/**
 * `STORE_NATIVE_MISSING` when the driver the options name, or by default any driver, is not
 * there; the message names the fix. `details`: `filename`, `driver` (the one that was needed),
 * `nodeVersion`.
 */
export function storeDriverMissing(
  filename: string,
  missing: MissingDriver,
): StoreError<'STORE_NATIVE_MISSING'> {
  const node = process.version;
  const install = `install better-sqlite3 (${INSTALL}; ${BUILD})`;
  const why = {
    'better-sqlite3': `driver 'better-sqlite3' was chosen but the better-sqlite3 package is not installed. Either ${install}, or on Node 22.13 or later choose driver 'node:sqlite' (or leave the option out), which needs nothing installed.`,
    'node:sqlite': `driver 'node:sqlite' needs Node 22.13 or later, and this is Node ${node}. Run on a newer Node, or ${install} and choose driver 'better-sqlite3' (or leave the option out).`,
    any: `no SQLite driver: Node ${node} has no node:sqlite (Node 22.13 or later has it) and the better-sqlite3 package is not installed. Either ${install}, or run on Node 22.13 or later.`,
  }[missing];
  return new StoreError(
    'STORE_NATIVE_MISSING',
    `Cannot open checkpoint database ${filename}: ${why}`,
    {
      details: {
        filename,
        driver: missing === 'node:sqlite' ? 'node:sqlite' : 'better-sqlite3',
        nodeVersion: node,
      },
    },
  );
}
