import { SkeinError } from '@skein/spec';

/** Another connection held the database lock for longer than the busy timeout. Nothing was written. */
export class StoreBusyError extends SkeinError<'STORE_BUSY'> {
  static override readonly errorName = 'StoreBusyError';
  readonly filename: string;
  readonly operation: string;
  readonly timeoutMs: number;

  constructor(filename: string, operation: string, timeoutMs: number, cause: unknown) {
    super(
      'STORE_BUSY',
      `Checkpoint database ${filename} stayed locked by another connection for more than ${timeoutMs} ms during ${operation}; nothing was written, retry later or raise busyTimeoutMs`,
      // The lock is released when the other writer commits: the same call can succeed later.
      { cause, details: { filename, operation, timeoutMs }, retryable: true },
    );
    this.filename = filename;
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }
}
