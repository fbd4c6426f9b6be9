import { SkeinError } from '@skein/spec';

/** `instrumentSkein` (or `recordScores`) was given an engine or an option it cannot use. */
export class InvalidOtelOptionError extends SkeinError<'OTEL_INVALID_OPTION'> {
  static override readonly errorName = 'InvalidOtelOptionError';
  /** The option at fault, e.g. `options.tracer`. */
  readonly option: string;

  /** `fn` is the function refusing it, for the message (default `instrumentSkein`). */
  constructor(option: string, problem: string, fn = 'instrumentSkein') {
    super('OTEL_INVALID_OPTION', `${fn}: ${option} ${problem}`, {
      details: { option },
    });
    this.option = option;
  }
}
