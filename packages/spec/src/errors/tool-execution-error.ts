import { SkeinError } from './skein-error.js';

export interface ToolExecutionErrorOptions<Code extends string> {
  /** What the model reads in brackets before the message; default `TOOL_FAILED`. */
  readonly code?: Code;
  readonly cause?: unknown;
  readonly details?: Record<string, unknown>;
  /** Whether calling the tool again can succeed (a flaky service): default false. */
  readonly retryable?: boolean;
}

/**
 * Throw from a tool to give the model a specific error text (any thrown Error works too). The
 * code is the tool's to choose, so it is a type parameter: `TOOL_FAILED` unless one is given.
 */
export class ToolExecutionError<Code extends string = 'TOOL_FAILED'> extends SkeinError<Code> {
  static override readonly errorName = 'ToolExecutionError';

  constructor(message: string, options: ToolExecutionErrorOptions<Code> = {}) {
    super(options.code ?? ('TOOL_FAILED' as Code), message, {
      ...(options.retryable === undefined ? {} : { retryable: options.retryable }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      ...(options.details ? { details: options.details } : {}),
    });
  }
}
