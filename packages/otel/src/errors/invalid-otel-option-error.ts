import { SkeinError } from '@skein/spec';

/** `instrumentSkein` was given an engine or an option it cannot use. */
export class InvalidOtelOptionError extends SkeinError<'OTEL_INVALID_OPTION'> {
  static override readonly errorName = 'InvalidOtelOptionError';
  /** The option at fault, e.g. `options.tracer`. */
  readonly option: string;

  constructor(option: string, problem: string) {
    super('OTEL_INVALID_OPTION', `instrumentSkein: ${option} ${problem}`, {
      details: { option },
    });
    this.option = option;
  }
}
