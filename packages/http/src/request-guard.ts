import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { InvalidArgumentError } from '@skein/spec';
import { HttpRequestError } from './http-request-error.js';
import { targetHost } from './request-path.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
// OPTIONS counts as a write: nothing a page of another origin may send here goes unchecked.
const SAFE_METHODS = new Set(['GET', 'HEAD']);
// `none` is a request the user made themselves (typed in the address bar).
const OWN_SITES = new Set(['same-origin', 'none']);
// A scheme and an authority without credentials, and nothing after but one slash.
const AUTHORITY_ONLY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\\\s]+\/?$/i;

/** A fetch `Request` (by its `Headers`, so one of another copy of undici counts too). */
export function isFetchRequest(req: IncomingMessage | Request): req is Request {
  return typeof (req.headers as Partial<Headers>).get === 'function';
}

export interface AllowedHostsOptions {
  /** The address the server is bound to, if not a loopback one (an IPv6 address gets brackets). */
  readonly boundHost?: string;
  /** More `Host` values to answer, exactly as clients send them (`name:port`). */
  readonly extra?: Iterable<string>;
}

/**
 * The `Host` values a server on `port` answers: 127.0.0.1, localhost, [::1] and `boundHost`, each
 * with the port (a client leaves it out only for 80), and the `extra` ones.
 */
export function allowedHosts(port: number, options: AllowedHostsOptions = {}): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  const bound = options.boundHost?.toLowerCase();
  if (bound !== undefined)
    names.add(bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound);
  const hosts = new Set<string>();
  for (const name of names) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  for (const host of options.extra ?? []) hosts.add(host.toLowerCase());
  return hosts;
}

/**
 * The origins a server takes writes from besides its own (`https://app.example.com`), normalised
 * as browsers send them in `Origin` (scheme and host lower-cased, no default port). Anything but a
 * bare http(s) origin — a path, a query, credentials, `*` — is refused with `InvalidArgumentError`
 * naming `argument[i]`.
 */
export function allowedOrigins(
  origins: Iterable<string>,
  argument = 'allowedOrigins',
): ReadonlySet<string> {
  if (typeof origins === 'string' || typeof origins?.[Symbol.iterator] !== 'function')
    throw new InvalidArgumentError(argument, `${argument} must be an array of origins`);
  const set = new Set<string>();
  let i = 0;
  for (const origin of origins) {
    const where = `${argument}[${i++}]`;
    let url: URL | undefined;
    try {
      url = typeof origin === 'string' && AUTHORITY_ONLY.test(origin) ? new URL(origin) : undefined;
    } catch {}
    const bare = url?.protocol === 'http:' || url?.protocol === 'https:';
    if (!bare)
      throw new InvalidArgumentError(
        where,
        `${where} must be an origin such as https://app.example.com (a scheme, a host and a port only), got ${JSON.stringify(origin).slice(0, 120)}`,
      );
    set.add(url!.origin);
  }
  return set;
}

/** The origin a request of `scheme` to `host` is same-origin with, as browsers write it. */
function ownOrigin(scheme: string, host: string): string | undefined {
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** The headers the guard reads (a missing one `undefined` or `null`), as Node or fetch give them. */
export interface GuardedHeaders {
  readonly method: string;
  /**
   * The scheme the request came over (default `http`): a page's own origin is `<scheme>://<host>`.
   * A fetch `Request` says it in its URL; a Node request by its socket (TLS or not).
   */
  readonly scheme?: 'http' | 'https';
  readonly host: string | null | undefined;
  readonly origin?: string | null | undefined;
  readonly secFetchSite?: string | null | undefined;
  /**
   * The request-target (Node's `req.url`, a fetch `Request`'s URL): an absolute-form one must
   * name an allowed host too.
   */
  readonly target?: string | undefined;
}

export interface GuardOptions {
  /**
   * Check the origin of writes only (default), or of every method: `false` where a GET does
   * something a page must not (opens an event stream of the server's own).
   */
  readonly writesOnly?: boolean;
  /**
   * Origins taken besides the request's own, as `allowedOrigins([...])` makes them: a page on
   * another origin of the app's (`https://app.example.com` calling `https://api.example.com`).
   */
  readonly allowedOrigins?: ReadonlySet<string>;
}

/**
 * Throws unless the request is for this server and, when it writes (anything but GET and HEAD;
 * or always, with `writesOnly: false`), from its own origin or one of `allowedOrigins`. Another
 * Host is a page that rebound its DNS name to 127.0.0.1 to read this server as same-origin (421);
 * another `Origin` is a page acting through the user's browser (403; another port of 127.0.0.1
 * is another program), as is a `Sec-Fetch-Site` other than `same-origin`/`none` unless the
 * `Origin` is one the app named. The request's own origin is `<scheme>://<Host>` with the scheme it came
 * over: behind a proxy that ends TLS the request arrives as `http`, so name the public origin in
 * `allowedOrigins` (forwarded headers are not read: the app knows its origins). Clients that
 * are not browsers send neither header. `hosts` `null` skips the Host check, for a server behind
 * one that made it. Runs before any body is read.
 */
export function guardHeaders(
  request: GuardedHeaders,
  hosts: ReadonlySet<string> | null,
  options: GuardOptions = {},
): void {
  const host = request.host?.toLowerCase() ?? '';
  if (hosts !== null) {
    const target = targetHost(request.target);
    if (!hosts.has(host) || (target !== undefined && !hosts.has(target)))
      throw HttpRequestError.hostNotAllowed(host);
  }
  if ((options.writesOnly ?? true) && SAFE_METHODS.has(request.method)) return;
  const { origin, secFetchSite: site } = request;
  const from = origin?.toLowerCase();
  // A page of another origin the app named writes from another site: that is what it says.
  const named = from !== undefined && options.allowedOrigins?.has(from) === true;
  if (from !== undefined && !named && from !== ownOrigin(request.scheme ?? 'http', host))
    throw HttpRequestError.crossOrigin(request.method, origin!);
  if (site != null && !named && !OWN_SITES.has(site.toLowerCase()))
    throw HttpRequestError.crossOrigin(request.method, `Sec-Fetch-Site: ${site}`);
}

/**
 * `guardHeaders` for a Node request or a fetch `Request`, its target checked too: a Node
 * request's absolute-form one, a fetch `Request`'s URL (which a Node bridge such as Hono's builds
 * from an absolute-form target, or from the Host).
 */
export function guardRequest(
  req: IncomingMessage | Request,
  hosts: ReadonlySet<string> | null,
  options: GuardOptions = {},
): void {
  if (isFetchRequest(req)) {
    const { headers } = req;
    const url = new URL(req.url);
    guardHeaders(
      {
        method: req.method,
        scheme: url.protocol === 'https:' ? 'https' : 'http',
        // A `Request` made in code (a test, a route handler's) may have no Host: its URL says it.
        host: headers.get('host') ?? url.host,
        origin: headers.get('origin'),
        secFetchSite: headers.get('sec-fetch-site'),
        target: req.url,
      },
      hosts,
      options,
    );
    return;
  }
  const site = req.headers['sec-fetch-site'];
  guardHeaders(
    {
      method: req.method ?? 'GET',
      scheme: (req.socket as Partial<TLSSocket> | undefined)?.encrypted ? 'https' : 'http',
      host: req.headers.host,
      origin: req.headers.origin,
      secFetchSite: typeof site === 'string' ? site : undefined,
      target: req.url,
    },
    hosts,
    options,
  );
}
