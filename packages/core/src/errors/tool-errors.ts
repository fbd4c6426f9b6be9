import { SkeinError } from '@skein/conversation';

/** Throw from a tool to give the model a specific error text (any thrown Error works too). */
export class ToolExecutionError extends SkeinError {
  constructor(
    message: string,
    options: {
      code?: string;
      cause?: unknown;
      details?: Record<string, unknown>;
      /** Whether calling the tool again can succeed (a flaky service): default false. */
      retryable?: boolean;
    } = {},
  ) {
    super(options.code ?? 'TOOL_FAILED', message, {
      ...(options.retryable === undefined ? {} : { retryable: options.retryable }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      ...(options.details ? { details: options.details } : {}),
    });
  }
}

/** Arguments that are not JSON or do not match the tool's schema. */
export class ToolArgumentsError extends SkeinError {
  constructor(toolName: string, problems: string) {
    super('TOOL_ARGUMENTS_INVALID', `Arguments for tool "${toolName}" are invalid: ${problems}`, {
      details: { toolName, problems },
    });
  }
}

export class ToolTimeoutError extends SkeinError {
  constructor(toolName: string, timeoutMs: number) {
    super('TOOL_TIMEOUT', `Tool "${toolName}" did not finish within ${timeoutMs} ms`, {
      details: { toolName, timeoutMs },
      // A slow call may well finish in time on another try.
      retryable: true,
    });
  }
}
