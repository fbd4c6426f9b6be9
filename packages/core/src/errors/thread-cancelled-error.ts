import { SkeinError } from '@skein/spec';

/** The thread was cancelled through its AbortSignal. */
export class ThreadCancelledError extends SkeinError<'THREAD_CANCELLED'> {
  static override readonly errorName = 'ThreadCancelledError';
  readonly threadId: string;

  constructor(threadId: string) {
    super('THREAD_CANCELLED', `Thread ${threadId} was cancelled`, { details: { threadId } });
    this.threadId = threadId;
  }
}
