import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { guardHeaders, HttpRequestError } from '@skein/http';

const METHODS = ['GET', 'HEAD', 'OPTIONS'];
// Public and read by clients of any origin (a browser-based MCP client too), as the MCP SDK's
// own metadata handler answers it.
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': '*',
};

/**
 * Answers `GET /.well-known/oauth-protected-resource<path>` with the server's protected-resource
 * metadata (RFC 9728), which tells a client where to get a token. Only the Host is checked: the
 * document is public, for every origin (an `OPTIONS` preflight is answered too).
 */
export function serveResourceMetadata(
  request: IncomingMessage,
  response: ServerResponse,
  hosts: ReadonlySet<string>,
  metadata: OAuthProtectedResourceMetadata,
): void {
  guardHeaders({ method: 'GET', host: request.headers.host, target: request.url }, hosts);
  const method = request.method ?? '';
  if (!METHODS.includes(method)) throw HttpRequestError.methodNotAllowed(method, METHODS);
  if (method === 'OPTIONS') {
    response.writeHead(204, CORS).end();
    return;
  }
  const text = JSON.stringify(metadata);
  response.writeHead(200, {
    ...CORS,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'max-age=300',
  });
  response.end(method === 'HEAD' ? undefined : text);
}
