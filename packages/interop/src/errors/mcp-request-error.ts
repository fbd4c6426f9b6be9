import { SkeinError } from '@skein/conversation';

/**
 * An MCP request answered with a protocol error (unknown method, invalid params, timeout, a
 * pagination cursor repeated by the server, …) rather than a tool result.
 */
export class McpRequestError extends SkeinError {
  /** The JSON-RPC error code when the server sent one. */
  readonly mcpCode: number | undefined;

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
  }
}
