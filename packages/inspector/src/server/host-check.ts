import type { MiddlewareHandler } from 'hono';
import { InspectorRequestError } from '../errors/inspector-request-error.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The `Host` values the inspector answers: the loopback names and the name it is bound to, each
 * with its port (a browser omits the port only for 80).
 */
export function allowedHosts(boundHost: string, port: number): Set<string> {
  const bound =
    boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
  const hosts = new Set<string>();
  for (const name of new Set([...LOOPBACK_NAMES, bound.toLowerCase()])) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  return hosts;
}

/**
 * Refuses (421) a request for any other host. A page on another site can rebind its own DNS name
 * to 127.0.0.1 and then read the API as same-origin; its requests still carry that name.
 */
export function checkHost(hosts: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host')?.toLowerCase();
    // The URL's host differs from the header only for an absolute-form request target.
    const target = new URL(c.req.url).host.toLowerCase();
    if (host === undefined || !hosts.has(host) || !hosts.has(target))
      throw InspectorRequestError.hostNotAllowed(host ?? '');
    await next();
  };
}
