import { SkeinError } from '@skein/spec';

/**
 * SQLite could not open, read or write the file (missing directory, no permission, disk full, a
 * read-only file system, …). `sqliteCode` is SQLite's own code, e.g. `SQLITE_CANTOPEN`.
 */
export class StoreIoError extends SkeinError<'STORE_IO'> {
  static override readonly errorName = 'StoreIoError';
  readonly filename: string;
  readonly sqliteCode: string | undefined;
  readonly operation: string;

  constructor(filename: string, operation: string, cause: unknown, sqliteCode?: string) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('STORE_IO', `Checkpoint database ${filename} failed during ${operation}: ${reason}`, {
      cause,
      details: { filename, operation, sqliteCode },
    });
    this.filename = filename;
    this.sqliteCode = sqliteCode;
    this.operation = operation;
  }
}
