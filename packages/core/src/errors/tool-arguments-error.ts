import { SkeinError } from '@skein/spec';

/** Arguments that are not JSON or do not match the tool's schema. */
export class ToolArgumentsError extends SkeinError<'TOOL_ARGUMENTS_INVALID'> {
  static override readonly errorName = 'ToolArgumentsError';
  readonly toolName: string;
  /** What the check found, as one line of text. */
  readonly problems: string;

  constructor(toolName: string, problems: string) {
    super('TOOL_ARGUMENTS_INVALID', `Arguments for tool "${toolName}" are invalid: ${problems}`, {
      details: { toolName, problems },
    });
    this.toolName = toolName;
    this.problems = problems;
  }
}
