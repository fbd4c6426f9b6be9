import { SkeinError } from '@skein/conversation';

/** A tool definition that cannot be registered (no name, no executor, parameters not a schema). */
export class InvalidToolError extends SkeinError {
  constructor(toolName: string, problem: string) {
    super('INVALID_TOOL', `Tool "${toolName}" cannot be registered: ${problem}`, {
      details: { toolName, problem },
    });
  }
}
