import { SkeinError } from '@skein/spec';

/**
 * An MCP request answered with a protocol error (unknown method, invalid params, timeout, a
 * pagination cursor repeated by the server, …) rather than a tool result.
 */
export class McpRequestError extends SkeinError<'MCP_REQUEST_FAILED'> {
  static override readonly errorName = 'McpRequestError';
  /** The JSON-RPC error code when the server sent one. */
  readonly mcpCode: number | undefined;
  readonly server: string;
  readonly operation: string;

  constructor(
    server: string,
    operation: string,
    problem: string,
    mcpCode?: number,
    cause?: unknown,
  ) {
    super('MCP_REQUEST_FAILED', `MCP server "${server}" failed ${operation}: ${problem}`, {
      cause,
      details: { server, operation, problem, ...(mcpCode === undefined ? {} : { mcpCode }) },
    });
    this.mcpCode = mcpCode;
    this.server = server;
    this.operation = operation;
  }
}
