import { SkeinError } from './skein-error.js';

/** A message that cannot be stored: no role, an unknown role, a tool message without `toolCallId`, … */
export class InvalidMessageError extends SkeinError {
  readonly field: string;

  constructor(message: string, field: string, details: Record<string, unknown> = {}) {
    super('INVALID_MESSAGE', message, { details: { field, ...details } });
    this.field = field;
  }
}
