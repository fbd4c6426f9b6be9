import { SkeinError } from './skein-error.js';

/** A tool call that did not finish within its time limit. */
export class ToolTimeoutError extends SkeinError<'TOOL_TIMEOUT'> {
  static override readonly errorName = 'ToolTimeoutError';
  readonly toolName: string;
  readonly timeoutMs: number;

  constructor(toolName: string, timeoutMs: number) {
    super('TOOL_TIMEOUT', `Tool "${toolName}" did not finish within ${timeoutMs} ms`, {
      details: { toolName, timeoutMs },
      // A slow call may well finish in time on another try.
      retryable: true,
    });
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }
}
