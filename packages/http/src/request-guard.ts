import type { IncomingMessage } from 'node:http';
import { HttpRequestError } from './http-request-error.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// `none` is a request the user made themselves (typed in the address bar).
const OWN_SITES = new Set(['same-origin', 'none']);

/** The `Host` values a server on a loopback port answers (a browser omits the port only for 80). */
export function loopbackHosts(port: number): Set<string> {
  const hosts = new Set<string>();
  for (const name of LOOPBACK_NAMES) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  return hosts;
}

/**
 * Throws unless `req` is for this server and, when it writes, from its own origin. Another Host
 * is a page that rebound its DNS name to 127.0.0.1 to read this server as same-origin (421); a
 * write with another `Origin` or `Sec-Fetch-Site` is a page acting through the user's browser
 * (403). Runs before any body is read.
 */
export function guardRequest(req: IncomingMessage, hosts: ReadonlySet<string>): void {
  const host = req.headers.host?.toLowerCase();
  if (host === undefined || !hosts.has(host)) throw HttpRequestError.hostNotAllowed(host ?? '');
  if (SAFE_METHODS.has(req.method ?? 'GET')) return;
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`)
    throw HttpRequestError.crossOrigin(req.method ?? '', origin);
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && !OWN_SITES.has(site.toLowerCase()))
    throw HttpRequestError.crossOrigin(req.method ?? '', `Sec-Fetch-Site: ${site}`);
}
