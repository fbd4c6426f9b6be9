import type { ServerResponse } from 'node:http';
import { dropUnreadBody, errorAnswer } from '@skein/http';

/**
 * Answers a refused request (an `HttpRequestError` of the Host, Origin, path and body checks or
 * of the sessions) or a failure with `@skein/http`'s status for it and a JSON-RPC error body
 * (what MCP clients read); a 405 carries `Allow`. A body refused half-read is dropped and the
 * connection closed after the answer, so the client reads the answer rather than a reset.
 */
export function refuse(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const { status, headers, body } = errorAnswer(error);
  const internal = body.error.code === 'INTERNAL_ERROR';
  dropUnreadBody(response.req, response);
  response.writeHead(status, { ...headers, 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: internal ? -32603 : -32000,
        message: internal ? 'Internal error of the MCP server' : body.error.message,
        ...(internal ? {} : { data: { code: body.error.code } }),
      },
      id: null,
    }),
  );
}
