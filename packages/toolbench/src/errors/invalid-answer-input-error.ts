import { SkeinError } from '@skein/spec';

/** Input to the answer export that is not a finished thread's messages. */
export class InvalidAnswerInputError extends SkeinError<'TOOLBENCH_INVALID_ANSWER_INPUT'> {
  static override readonly errorName = 'InvalidAnswerInputError';
  readonly path: string;

  constructor(path: string, problem: string) {
    super('TOOLBENCH_INVALID_ANSWER_INPUT', `Cannot export the answer: ${path} ${problem}`, {
      details: { path, problem },
    });
    this.path = path;
  }
}
