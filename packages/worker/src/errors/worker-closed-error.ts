import { SkeinError } from '@skein/spec';

/** A worker or client was used after `stop()` / `close()`. Nothing was sent to the database. */
export class WorkerClosedError extends SkeinError<'WORKER_CLOSED'> {
  static override readonly errorName = 'WorkerClosedError';
  readonly operation: string;

  constructor(operation: string) {
    super(
      'WORKER_CLOSED',
      `Cannot ${operation}: the Skein worker (or client) was already stopped; create a new one`,
      { details: { operation } },
    );
    this.operation = operation;
  }
}
