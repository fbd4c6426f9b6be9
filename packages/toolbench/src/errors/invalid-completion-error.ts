import { SkeinError } from '@skein/conversation';

/** The `complete` function given to `createReActLLMClient` returned something that is not text. */
export class InvalidCompletionError extends SkeinError {
  constructor(problem: string) {
    super(
      'TOOLBENCH_INVALID_COMPLETION',
      `The completion function returned ${problem}; expected a string or an async iterable of strings`,
      {
        details: { problem },
      },
    );
  }
}
