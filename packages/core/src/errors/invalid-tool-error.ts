import { SkeinError } from '@skein/spec';

/** A tool definition that cannot be registered (no name, no executor, parameters not a schema). */
export class InvalidToolError extends SkeinError<'INVALID_TOOL'> {
  static override readonly errorName = 'InvalidToolError';
  readonly toolName: string;
  readonly problem: string;

  constructor(toolName: string, problem: string) {
    super('INVALID_TOOL', `Tool "${toolName}" cannot be registered: ${problem}`, {
      details: { toolName, problem },
    });
    this.toolName = toolName;
    this.problem = problem;
  }
}
