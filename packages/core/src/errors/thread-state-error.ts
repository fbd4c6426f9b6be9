import type { ThreadStatus } from '@skein/spec';
import { SkeinError } from '@skein/spec';

/** An operation the thread's status does not allow (resume of a running thread, …). */
export class ThreadStateError extends SkeinError<'THREAD_STATE'> {
  static override readonly errorName = 'ThreadStateError';
  readonly threadId: string;
  readonly status: ThreadStatus;

  constructor(threadId: string, status: ThreadStatus, problem: string) {
    super('THREAD_STATE', `Thread ${threadId} is ${status}: ${problem}`, {
      details: { threadId, status },
    });
    this.threadId = threadId;
    this.status = status;
  }
}
