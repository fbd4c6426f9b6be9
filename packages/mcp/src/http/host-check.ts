import type { IncomingMessage } from 'node:http';
import { McpHttpError } from '../errors/mcp-http-error.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The `Host` values to answer: the loopback names and the name bound to, each with its port (a
 * client leaves the port out only for 80), and any extra ones the caller allows.
 */
export function allowedHosts(
  boundHost: string,
  port: number,
  extra: Iterable<string> = [],
): Set<string> {
  const bound =
    boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
  const hosts = new Set<string>();
  for (const name of new Set([...LOOPBACK_NAMES, bound.toLowerCase()])) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  for (const host of extra) hosts.add(host.toLowerCase());
  return hosts;
}

/**
 * Refuses (421) a request for any other host. A page on another site can rebind its own DNS
 * name to 127.0.0.1 and then call the server as same-origin; its requests still carry that name.
 */
export function checkHost(request: IncomingMessage, hosts: ReadonlySet<string>): void {
  const host = request.headers.host?.toLowerCase();
  // An absolute-form target (`POST http://evil.example/mcp`) names a host of its own.
  const target = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(request.url ?? '')?.[1]?.toLowerCase();
  if (host === undefined || !hosts.has(host) || (target !== undefined && !hosts.has(target)))
    throw McpHttpError.hostNotAllowed(host ?? '');
}
