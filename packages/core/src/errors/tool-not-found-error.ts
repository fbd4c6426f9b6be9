import { SkeinError } from '@skein/conversation';

/** A tool name that no registry entry answers to. */
export class ToolNotFoundError extends SkeinError {
  constructor(toolName: string, where: string) {
    super('TOOL_NOT_FOUND', `Tool "${toolName}" is not registered (${where})`, {
      details: { toolName, where },
    });
  }
}
