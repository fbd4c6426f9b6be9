import { checkNumber, describeValue } from '@skein/core/store-kit';
import { InvalidArgumentError } from '@skein/spec';
import type { SqliteDriverName } from './driver/connection.js';

export interface SqliteCheckpointStoreOptions {
  /** The database file, created when missing; `':memory:'` for a private in-memory database. */
  readonly filename: string;
  /**
   * How long to wait for another connection's lock before `STORE_BUSY`: an integer from 0 to
   * 2,147,483,647 ms (default 5,000).
   */
  readonly busyTimeoutMs?: number;
  /**
   * `'full'` (default): a checkpoint whose `save()` resolved survives a power cut. `'normal'`:
   * it survives a crash of the process, not of the machine; saves are several times faster.
   */
  readonly synchronous?: 'full' | 'normal';
  /** Run SQLite's `quick_check` over an existing file when opening it (default true). */
  readonly verifyOnOpen?: boolean;
  /**
   * The SQLite library: `'better-sqlite3'` (an optional peer dependency, a native addon) or
   * `'node:sqlite'` (built into Node 22.13 and later). Default: better-sqlite3 when it is
   * installed, node:sqlite when it is not. Both write the same file format.
   */
  readonly driver?: SqliteDriverName;
}

const DRIVERS: readonly unknown[] = ['better-sqlite3', 'node:sqlite'] satisfies SqliteDriverName[];

/** SQLite takes the busy timeout as a C `int` of milliseconds. */
const MAX_BUSY_TIMEOUT_MS = 2 ** 31 - 1;

/** Refuses options of the wrong kind before anything is opened. */
export function checkOptions(options: SqliteCheckpointStoreOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'SqliteCheckpointStore needs { filename }');
  const { filename, busyTimeoutMs, synchronous } = options;
  if (typeof filename !== 'string' || filename.length === 0)
    throw new InvalidArgumentError(
      'filename',
      `filename must be a non-empty path or ':memory:', got ${describeValue(filename)}`,
    );
  // The file system ends a path at a NUL byte: the file opened would not be the one named.
  if (filename.includes('\0'))
    throw new InvalidArgumentError(
      'filename',
      `filename must not contain a NUL character, got ${describeValue(filename)}`,
    );
  // A number out of range would otherwise reach SQLite and fail there with an untyped error, or be
  // clamped without a word.
  if (busyTimeoutMs !== undefined)
    checkNumber('busyTimeoutMs', busyTimeoutMs, {
      min: 0,
      max: MAX_BUSY_TIMEOUT_MS,
      integer: true,
    });
  if (synchronous !== undefined && synchronous !== 'full' && synchronous !== 'normal')
    throw new InvalidArgumentError(
      'synchronous',
      `synchronous must be 'full' or 'normal', got ${describeValue(synchronous)}`,
    );
  if (options.verifyOnOpen !== undefined && typeof options.verifyOnOpen !== 'boolean')
    throw new InvalidArgumentError(
      'verifyOnOpen',
      `verifyOnOpen must be a boolean, got ${describeValue(options.verifyOnOpen)}`,
    );
  if (options.driver !== undefined && !DRIVERS.includes(options.driver))
    throw new InvalidArgumentError(
      'driver',
      `driver must be 'better-sqlite3' or 'node:sqlite', got ${describeValue(options.driver)}`,
    );
}
