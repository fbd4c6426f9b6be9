import { InvalidArgumentError } from '@skein/conversation';

export interface SqliteCheckpointStoreOptions {
  /** The database file, created when missing; `':memory:'` for a private in-memory database. */
  readonly filename: string;
  /** How long to wait for another connection's lock before `STORE_BUSY` (default 5,000 ms). */
  readonly busyTimeoutMs?: number;
  /**
   * `'full'` (default): a checkpoint whose `save()` resolved survives a power cut. `'normal'`:
   * it survives a crash of the process, not of the machine; saves are several times faster.
   */
  readonly synchronous?: 'full' | 'normal';
  /** Run SQLite's `quick_check` over an existing file when opening it (default true). */
  readonly verifyOnOpen?: boolean;
}

/** Refuses options of the wrong kind before anything is opened. */
export function checkOptions(options: SqliteCheckpointStoreOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'SqliteCheckpointStore needs { filename }');
  const { filename, busyTimeoutMs, synchronous } = options;
  if (typeof filename !== 'string' || filename.length === 0)
    throw new InvalidArgumentError(
      'filename',
      `filename must be a non-empty path or ':memory:', got ${JSON.stringify(filename)}`,
    );
  if (busyTimeoutMs !== undefined && (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0))
    throw new InvalidArgumentError(
      'busyTimeoutMs',
      `busyTimeoutMs must be an integer >= 0, got ${String(busyTimeoutMs)}`,
    );
  if (synchronous !== undefined && synchronous !== 'full' && synchronous !== 'normal')
    throw new InvalidArgumentError(
      'synchronous',
      `synchronous must be 'full' or 'normal', got ${JSON.stringify(synchronous)}`,
    );
  if (options.verifyOnOpen !== undefined && typeof options.verifyOnOpen !== 'boolean')
    throw new InvalidArgumentError(
      'verifyOnOpen',
      `verifyOnOpen must be a boolean, got ${JSON.stringify(options.verifyOnOpen)}`,
    );
}
