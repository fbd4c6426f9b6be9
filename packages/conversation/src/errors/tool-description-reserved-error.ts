import { SkeinError } from './skein-error.js';

/**
 * A call that would replace or forge the tool-description message. The description is built by
 * the conversation from its initial tools, so that a batch started with them shows exactly one.
 */
export class ToolDescriptionReservedError extends SkeinError {
  /** The argument or message field at fault (`REPLACE position`, `message.metadata.kind`). */
  readonly field: string;

  constructor(field: string, message: string, details: Record<string, unknown> = {}) {
    super('TOOL_DESCRIPTION_RESERVED', message, { details: { field, ...details } });
    this.field = field;
  }
}
