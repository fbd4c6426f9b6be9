import { ChatRequestError } from '../errors/chat-request-error.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The `Host` values a server bound to 127.0.0.1:`port` answers (a browser omits port 80). */
export function loopbackHosts(port: number): Set<string> {
  const hosts = new Set<string>();
  for (const name of LOOPBACK_NAMES) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  return hosts;
}

/**
 * Refuses (421) a request for any other host: a page on another site can rebind its own DNS name
 * to 127.0.0.1 and then read the chat as same-origin, but its requests still carry that name.
 */
export function checkHost(request: Request, hosts: ReadonlySet<string>): void {
  const host = request.headers.get('host')?.toLowerCase();
  if (host === undefined || !hosts.has(host))
    throw new ChatRequestError(
      'HOST_NOT_ALLOWED',
      `Host "${host ?? ''}" is not one this chat server answers for (it listens on 127.0.0.1 only)`,
      { host: host ?? '' },
    );
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// `none`: the user typed the address themselves.
const OWN_SITES = new Set(['same-origin', 'none']);

/**
 * Refuses (403) a write that a browser says comes from another origin, by its `Origin` or by
 * `Sec-Fetch-Site`, before any body is read. Another port of 127.0.0.1 is another program, so
 * same-site counts as foreign. Requests without either header (curl, a server) pass.
 */
export function checkSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  const own = `http://${request.headers.get('host') ?? ''}`.toLowerCase();
  const from =
    origin !== null && origin.toLowerCase() !== own
      ? origin
      : site !== null && !OWN_SITES.has(site.toLowerCase())
        ? `Sec-Fetch-Site: ${site}`
        : undefined;
  if (from !== undefined)
    throw new ChatRequestError(
      'CROSS_ORIGIN_REFUSED',
      `${request.method} from ${from} refused: the chat takes writes from its own page only`,
      { from, method: request.method },
    );
}
