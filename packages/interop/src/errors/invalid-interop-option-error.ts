import { SkeinError } from '@skein/spec';

/** An option of an interop function that has the wrong type or value. */
export class InvalidInteropOptionError extends SkeinError<'INVALID_INTEROP_OPTION'> {
  static override readonly errorName = 'InvalidInteropOptionError';
  /** The function the option was given to. */
  readonly function: string;
  readonly option: string;
  readonly problem: string;

  constructor(fn: string, option: string, problem: string) {
    super('INVALID_INTEROP_OPTION', `${fn}: option "${option}" ${problem}`, {
      details: { function: fn, option, problem },
    });
    this.function = fn;
    this.option = option;
    this.problem = problem;
  }
}
