import { SkeinError } from '@skein/spec';

/**
 * The connection to an MCP server is gone (closed, never opened, or the server process died) while
 * listing or calling its tools. Thrown from that one call; the thread reads it as a tool error.
 */
export class McpConnectionError extends SkeinError<'MCP_CONNECTION_LOST'> {
  static override readonly errorName = 'McpConnectionError';
  readonly server: string;
  /** What was being done when the connection was found lost. */
  readonly operation: string;

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
    this.server = server;
    this.operation = operation;
  }
}
