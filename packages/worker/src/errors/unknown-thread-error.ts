import { NotFoundError } from '@skein/spec';

/**
 * `resumeThread` named a thread that has nothing queued or stored under that id in this worker
 * schema, so no worker could ever take the input. Nothing was enqueued.
 */
export class UnknownThreadError extends NotFoundError<'WORKER_UNKNOWN_THREAD'> {
  static override readonly errorName = 'UnknownThreadError';
  readonly threadId: string;
  readonly operation: string;

  constructor(threadId: string, operation: string) {
    super(
      'WORKER_UNKNOWN_THREAD',
      `Cannot ${operation} thread "${threadId}": it was never enqueued through this worker schema`,
      { details: { threadId, operation } },
    );
    this.threadId = threadId;
    this.operation = operation;
  }
}
