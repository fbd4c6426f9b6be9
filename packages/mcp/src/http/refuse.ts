import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpRequestError } from '@skein/http';
import { McpHttpError } from '../errors/mcp-http-error.js';

/**
 * Answers a refused request (an `McpHttpError`, or an `HttpRequestError` of the Host, Origin and
 * body checks) with its status and a JSON-RPC error body (what MCP clients read).
 * A body refused half-read leaves the connection unusable, so it is closed once answered.
 */
export function refuse(request: IncomingMessage, response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const known =
    McpHttpError.isInstance(error) || HttpRequestError.isInstance(error) ? error : undefined;
  const status = known?.httpStatus ?? 500;
  const message = known?.message ?? 'Internal error of the MCP server';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (known?.code === 'METHOD_NOT_ALLOWED') headers.allow = 'GET, POST, DELETE';
  if (!request.complete) headers.connection = 'close';
  response.writeHead(status, headers);
  response.end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: known ? -32000 : -32603,
        message,
        ...(known ? { data: { code: known.code } } : {}),
      },
      id: null,
    }),
  );
  // Read what is left of an unread body (up to the socket's close), so the client gets the
  // answer instead of a reset while it is still sending.
  if (!request.complete) request.resume();
}
