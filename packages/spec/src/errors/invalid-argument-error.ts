import { SkeinError } from './skein-error.js';

/** An argument of the wrong kind: a negative or fractional count, an unknown operation type, … */
export class InvalidArgumentError extends SkeinError<'INVALID_ARGUMENT'> {
  static override readonly errorName = 'InvalidArgumentError';
  /** The argument at fault, e.g. `count` or `options.maxSteps`. */
  readonly argument: string;

  constructor(argument: string, message: string, details: Record<string, unknown> = {}) {
    super('INVALID_ARGUMENT', message, { details: { argument, ...details } });
    this.argument = argument;
  }
}
