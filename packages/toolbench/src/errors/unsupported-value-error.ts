import { SkeinError } from '@skein/spec';

/** A value with no Python/JSON counterpart (a function, a symbol, a class instance, a cycle…). */
export class UnsupportedValueError extends SkeinError<'TOOLBENCH_UNSUPPORTED_VALUE'> {
  static override readonly errorName = 'UnsupportedValueError';
  readonly path: string;

  constructor(path: string, problem: string) {
    super('TOOLBENCH_UNSUPPORTED_VALUE', `Cannot render the value at ${path}: ${problem}`, {
      details: { path, problem },
    });
    this.path = path;
  }
}
