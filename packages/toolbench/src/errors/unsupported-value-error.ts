import { SkeinError } from '@skein/conversation';

/** A value with no Python/JSON counterpart (a function, a symbol, a class instance, a cycle…). */
export class UnsupportedValueError extends SkeinError {
  readonly path: string;

  constructor(path: string, problem: string) {
    super('TOOLBENCH_UNSUPPORTED_VALUE', `Cannot render the value at ${path}: ${problem}`, {
      details: { path, problem },
    });
    this.path = path;
  }
}
