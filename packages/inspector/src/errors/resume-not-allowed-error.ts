import { SkeinError } from '@skein/spec';

/** The page asked to answer a paused thread, but this inspector is read-only. */
export class ResumeNotAllowedError extends SkeinError<'RESUME_NOT_ALLOWED'> {
  static override readonly errorName = 'ResumeNotAllowedError';
  readonly threadId: string;
  /** Why: `read-only` (no `allowResume`) or `no-engine` (no engine to run the thread). */
  readonly reason: 'read-only' | 'no-engine';

  constructor(threadId: string, reason: 'read-only' | 'no-engine') {
    super(
      'RESUME_NOT_ALLOWED',
      reason === 'read-only'
        ? `Thread ${threadId} cannot be resumed from this inspector: it is read-only (start it with allowResume: true and an engine)`
        : `Thread ${threadId} cannot be resumed from this inspector: it has no engine to run the thread (pass engine to startInspector)`,
      { details: { threadId, reason } },
    );
    this.threadId = threadId;
    this.reason = reason;
  }
}
