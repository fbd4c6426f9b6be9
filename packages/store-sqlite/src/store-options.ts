import { InvalidArgumentError } from '@skein/spec';

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
}

/** SQLite takes the busy timeout as a C `int` of milliseconds. */
const MAX_BUSY_TIMEOUT_MS = 2 ** 31 - 1;

function show(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
}

/**
 * Throws unless `value` is an integer in `min..max`: a number out of range would otherwise reach
 * SQLite and fail there with an untyped error, or be clamped without a word.
 */
export function checkInteger(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new InvalidArgumentError(
      name,
      `${name} must be an integer from ${min} to ${max}, got ${show(value)}`,
      { value, min, max },
    );
  return value;
}

/** Refuses options of the wrong kind before anything is opened. */
export function checkOptions(options: SqliteCheckpointStoreOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'SqliteCheckpointStore needs { filename }');
  const { filename, busyTimeoutMs, synchronous } = options;
  if (typeof filename !== 'string' || filename.length === 0)
    throw new InvalidArgumentError(
      'filename',
      `filename must be a non-empty path or ':memory:', got ${show(filename)}`,
    );
  // The file system ends a path at a NUL byte: the file opened would not be the one named.
  if (filename.includes('\0'))
    throw new InvalidArgumentError(
      'filename',
      `filename must not contain a NUL character, got ${show(filename)}`,
    );
  if (busyTimeoutMs !== undefined)
    checkInteger('busyTimeoutMs', busyTimeoutMs, 0, MAX_BUSY_TIMEOUT_MS);
  if (synchronous !== undefined && synchronous !== 'full' && synchronous !== 'normal')
    throw new InvalidArgumentError(
      'synchronous',
      `synchronous must be 'full' or 'normal', got ${show(synchronous)}`,
    );
  if (options.verifyOnOpen !== undefined && typeof options.verifyOnOpen !== 'boolean')
    throw new InvalidArgumentError(
      'verifyOnOpen',
      `verifyOnOpen must be a boolean, got ${show(options.verifyOnOpen)}`,
    );
}

/** Throws unless `value` is a string: ids and owners, which may hold any text. */
export function checkString(name: string, value: unknown): void {
  if (typeof value !== 'string')
    throw new InvalidArgumentError(
      name,
      `${name} must be a string, got ${JSON.stringify(value) ?? String(value)}`,
    );
}
