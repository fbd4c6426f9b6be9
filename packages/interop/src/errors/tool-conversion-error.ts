import { SkeinError } from '@skein/conversation';

/**
 * A tool that cannot be converted between Skein and another framework: not a FunctionTool, a
 * name the target cannot take, a schema that is not a JSON Schema object, …
 */
export class ToolConversionError extends SkeinError {
  constructor(toolName: string, from: string, problem: string, cause?: unknown) {
    super(
      'TOOL_CONVERSION_FAILED',
      `Tool "${toolName}" (${from}) cannot be converted: ${problem}`,
      {
        cause,
        details: { toolName, from, problem },
      },
    );
  }
}
