import { SkeinError } from '@skein/spec';

/** A message that cannot be stored: no role, an unknown role, a tool message without `toolCallId`, … */
export class InvalidMessageError extends SkeinError<'INVALID_MESSAGE'> {
  static override readonly errorName = 'InvalidMessageError';
  /** The field at fault, e.g. `message.toolCalls[0].id`. */
  readonly field: string;

  constructor(message: string, field: string, details: Record<string, unknown> = {}) {
    super('INVALID_MESSAGE', message, { details: { field, ...details } });
    this.field = field;
  }
}
