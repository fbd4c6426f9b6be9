import type { IncomingMessage } from 'node:http';
import { McpHttpError } from '../errors/mcp-http-error.js';

// `none`: a request the user made themselves (typed in the address bar).
const OWN_SITES = new Set(['same-origin', 'none']);

/**
 * Refuses (403) a request a browser says comes from another origin: by its `Origin` (sent with
 * every cross-origin POST, `null` for opaque origins) or by `Sec-Fetch-Site`. Every method counts
 * here, unlike the inspector's page: a GET opens the server's event stream. Same-site is foreign
 * too (another port of 127.0.0.1 is another program). MCP clients that are not browsers send
 * neither header. Runs after the Host check, before any body is read.
 */
export function checkOrigin(request: IncomingMessage): void {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  const own = `http://${request.headers.host ?? ''}`.toLowerCase();
  if (origin !== undefined && origin.toLowerCase() !== own) throw McpHttpError.crossOrigin(origin);
  if (typeof site === 'string' && !OWN_SITES.has(site.toLowerCase()))
    throw McpHttpError.crossOrigin(`Sec-Fetch-Site: ${site}`);
}
