import type { MiddlewareHandler } from 'hono';
import { InspectorRequestError } from '../errors/inspector-request-error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

// `none` is a request the user made themselves (typed in the address bar).
const OWN_SITES = new Set(['same-origin', 'none']);

/**
 * Refuses (403) any request but GET and HEAD that a browser says comes from another origin: by
 * its `Origin` (sent with every cross-origin POST, `null` for opaque origins), or by
 * `Sec-Fetch-Site` (also for a form whose Origin a privacy setting dropped). Same-site counts as
 * foreign: another port of 127.0.0.1 is another program. Runs before any body is read.
 */
export const sameOriginWrites: MiddlewareHandler = async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method)) {
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    // The Host was checked before: it is one this inspector answers for.
    const own = `http://${c.req.header('host') ?? ''}`.toLowerCase();
    if (origin !== undefined && origin.toLowerCase() !== own)
      throw InspectorRequestError.crossOrigin(c.req.method, origin);
    if (site !== undefined && !OWN_SITES.has(site.toLowerCase()))
      throw InspectorRequestError.crossOrigin(c.req.method, `Sec-Fetch-Site: ${site}`);
  }
  await next();
};
