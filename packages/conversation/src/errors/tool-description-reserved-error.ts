import { SkeinError } from '@skein/spec';

/**
 * A call that would replace or forge the tool-description message. The description is built by
 * the conversation from its initial tools, so that a batch started with them shows exactly one.
 */
export class ToolDescriptionReservedError extends SkeinError<'TOOL_DESCRIPTION_RESERVED'> {
  static override readonly errorName = 'ToolDescriptionReservedError';
  /** The argument or message field at fault (`REPLACE position`, `message.metadata.kind`). */
  readonly field: string;

  constructor(field: string, message: string, details: Record<string, unknown> = {}) {
    super('TOOL_DESCRIPTION_RESERVED', message, { details: { field, ...details } });
    this.field = field;
  }
}
