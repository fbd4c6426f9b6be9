import { decodePath, guardRequest } from '@skein/http';
import type { MiddlewareHandler } from 'hono';

/**
 * `@skein/http`'s checks, before any route (or body) is looked at: another Host, or an
 * absolute-form target naming one (Hono's URL carries it), is 421 (a page that rebound its DNS
 * name to 127.0.0.1); anything but GET and HEAD from another origin is 403 (a page acting through
 * the user's browser); a malformed percent-escape in the path is 400 (Hono would decode around it).
 */
export function checkRequest(hosts: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    guardRequest(c.req.raw, hosts);
    decodePath(new URL(c.req.url).pathname);
    await next();
  };
}
