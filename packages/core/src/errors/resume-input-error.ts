import { SkeinError } from '@skein/spec';

/** Input to `resume` that does not answer what the thread waits for. */
export class ResumeInputError extends SkeinError<'RESUME_INPUT_INVALID'> {
  static override readonly errorName = 'ResumeInputError';
  readonly threadId: string;

  constructor(threadId: string, problem: string) {
    super('RESUME_INPUT_INVALID', `Cannot resume thread ${threadId}: ${problem}`, {
      details: { threadId },
    });
    this.threadId = threadId;
  }
}
