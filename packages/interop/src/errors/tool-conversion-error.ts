import { SkeinError } from '@skein/spec';

/**
 * A tool that cannot be converted between Skein and another framework: not a FunctionTool, a
 * name the target cannot take, a schema that is not a JSON Schema object, …
 */
export class ToolConversionError extends SkeinError<'TOOL_CONVERSION_FAILED'> {
  static override readonly errorName = 'ToolConversionError';
  readonly toolName: string;
  /** What the tool was converted from, e.g. `mcp:files` or `openai-agents`. */
  readonly from: string;
  readonly problem: string;

  constructor(toolName: string, from: string, problem: string, cause?: unknown) {
    super(
      'TOOL_CONVERSION_FAILED',
      `Tool "${toolName}" (${from}) cannot be converted: ${problem}`,
      {
        cause,
        details: { toolName, from, problem },
      },
    );
    this.toolName = toolName;
    this.from = from;
    this.problem = problem;
  }
}
