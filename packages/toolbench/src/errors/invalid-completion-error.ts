import { SkeinError } from '@skein/spec';

/** The `complete` function given to `createReActLLMClient` returned something that is not text. */
export class InvalidCompletionError extends SkeinError<'TOOLBENCH_INVALID_COMPLETION'> {
  static override readonly errorName = 'InvalidCompletionError';
  /** What the completion function returned instead, in words. */
  readonly problem: string;

  constructor(problem: string) {
    super(
      'TOOLBENCH_INVALID_COMPLETION',
      `The completion function returned ${problem}; expected a string or an async iterable of strings`,
      {
        details: { problem },
      },
    );
    this.problem = problem;
  }
}
