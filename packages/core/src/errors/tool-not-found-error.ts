import { SkeinError } from '@skein/spec';

/** A tool name that no registry entry answers to. */
export class ToolNotFoundError extends SkeinError<'TOOL_NOT_FOUND'> {
  static override readonly errorName = 'ToolNotFoundError';
  readonly toolName: string;
  /** Where the name was looked up, e.g. `node "agent"`. */
  readonly where: string;

  constructor(toolName: string, where: string) {
    super('TOOL_NOT_FOUND', `Tool "${toolName}" is not registered (${where})`, {
      details: { toolName, where },
    });
    this.toolName = toolName;
    this.where = where;
  }
}
