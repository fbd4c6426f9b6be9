import { ConflictError } from './kind-errors.js';

/**
 * Why a thread could not be taken: another resume already claimed the pause it waited at
 * (`RESUME_CONFLICT`), or a live process holds the thread's lease (`THREAD_LEASED`). Nothing ran:
 * the caller can load the thread again to see what the winner did.
 */
export type ThreadConflictCode = 'RESUME_CONFLICT' | 'THREAD_LEASED';

export class ThreadConflictError extends ConflictError<ThreadConflictCode> {
  static override readonly errorName = 'ThreadConflictError';
  readonly threadId: string;

  constructor(
    code: ThreadConflictCode,
    threadId: string,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(code, message, {
      details: { threadId, ...options.details },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.threadId = threadId;
  }
}
