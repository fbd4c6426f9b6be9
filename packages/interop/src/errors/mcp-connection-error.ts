import { SkeinError } from '@skein/conversation';

/**
 * The connection to an MCP server is gone (closed, never opened, or the server process died) while
 * listing or calling its tools. Thrown from that one call; the thread reads it as a tool error.
 */
export class McpConnectionError extends SkeinError {
  constructor(server: string, operation: string, cause?: unknown) {
    const reason = cause instanceof Error ? `: ${cause.message}` : '';
    super(
      'MCP_CONNECTION_LOST',
      `MCP server "${server}" is not connected (${operation})${reason}`,
      {
        cause,
        details: { server, operation },
      },
    );
  }
}
