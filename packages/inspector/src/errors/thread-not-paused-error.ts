import type { ThreadStatus } from '@skein/spec';
import { SkeinError } from '@skein/spec';

/** An answer was sent for a thread that is not waiting for one. */
export class ThreadNotPausedError extends SkeinError<'THREAD_NOT_PAUSED'> {
  static override readonly errorName = 'ThreadNotPausedError';
  readonly threadId: string;
  readonly status: ThreadStatus;

  constructor(threadId: string, status: ThreadStatus) {
    super(
      'THREAD_NOT_PAUSED',
      `Thread ${threadId} is ${status}, not PAUSED: there is nothing to answer`,
      { details: { threadId, status } },
    );
    this.threadId = threadId;
    this.status = status;
  }
}
