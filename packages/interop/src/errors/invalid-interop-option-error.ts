import { SkeinError } from '@skein/conversation';

/** An option of an interop function that has the wrong type or value. */
export class InvalidInteropOptionError extends SkeinError {
  constructor(fn: string, option: string, problem: string) {
    super('INVALID_INTEROP_OPTION', `${fn}: option "${option}" ${problem}`, {
      details: { function: fn, option, problem },
    });
  }
}
