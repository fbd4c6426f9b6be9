import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { SkeinError } from '@skein/spec';
import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { McpRequestError } from '../errors/mcp-request-error.js';

// Node stream errors seen when the peer process is gone before or while writing to it.
const BROKEN_PIPE_CODES = new Set([
  'EPIPE',
  'ERR_STREAM_DESTROYED',
  'ECONNRESET',
  'ERR_STREAM_WRITE_AFTER_END',
]);

function mcpCodeOf(error: unknown): number | undefined {
  // Checked by shape, not instanceof: the client may come from another copy of the SDK (ESM/CJS).
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'number' ? code : undefined;
}

function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (mcpCodeOf(error) === ErrorCode.ConnectionClosed) return true;
  if (error.message === 'Not connected') return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && BROKEN_PIPE_CODES.has(code);
}

/** The typed Skein error for a failed MCP request (`server` and `operation` name where). */
export function toMcpError(error: unknown, server: string, operation: string): SkeinError {
  if (SkeinError.isInstance(error)) return error;
  if (isConnectionLoss(error)) return new McpConnectionError(server, operation, error);
  const message = error instanceof Error ? error.message : String(error);
  return new McpRequestError(server, operation, message, mcpCodeOf(error), error);
}
