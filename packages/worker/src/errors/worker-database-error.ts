import { SkeinError } from '@skein/spec';

/**
 * Why a database failure reached the caller: the server could not be reached or dropped the
 * connection (`WORKER_DATABASE_UNAVAILABLE`, retryable: the same call can succeed once it is back),
 * or it refused the statement (`WORKER_DATABASE_ERROR`, not retryable). The driver's error is the
 * `cause`.
 */
export type WorkerDatabaseCode = 'WORKER_DATABASE_UNAVAILABLE' | 'WORKER_DATABASE_ERROR';

export class WorkerDatabaseError extends SkeinError<WorkerDatabaseCode> {
  static override readonly errorName = 'WorkerDatabaseError';
  readonly operation: string;

  constructor(code: WorkerDatabaseCode, operation: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      code,
      code === 'WORKER_DATABASE_UNAVAILABLE'
        ? `Cannot ${operation}: the database is unavailable (${reason}); try again once it is back`
        : `Cannot ${operation}: the database refused it (${reason})`,
      {
        cause,
        details: { operation, ...driverCode(cause) },
        retryable: code === 'WORKER_DATABASE_UNAVAILABLE',
      },
    );
    this.operation = operation;
  }
}

function driverCode(cause: unknown): { driverCode?: string } {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { driverCode: code } : {};
}
