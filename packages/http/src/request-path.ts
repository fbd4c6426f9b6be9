import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { HttpRequestError } from './http-request-error.js';

// The authority of an absolute-form request-target (`POST http://evil.example/mcp`).
const ABSOLUTE_TARGET = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/** The host an absolute-form request-target names (`http://evil.example/x`), lower-cased. */
export function targetHost(target: string | undefined): string | undefined {
  return ABSOLUTE_TARGET.exec(target ?? '')?.[1]?.toLowerCase();
}

/**
 * The URL a Node request asked for: its absolute-form target as it is, or its path under its
 * `Host` (`localhost` where that is no host, for a server that leaves the Host to one in front),
 * `https` when it came over TLS.
 * A path is never read as an authority: `//evil.example/x` is that path on this host.
 */
export function requestUrl(req: IncomingMessage): URL {
  const target = req.url ?? '/';
  if (targetHost(target) !== undefined) return new URL(target);
  const path = target.startsWith('/') ? target : `/${target}`;
  // The scheme it came over: a page's origin is compared with it.
  const scheme = (req.socket as Partial<TLSSocket> | undefined)?.encrypted ? 'https' : 'http';
  try {
    return new URL(`${scheme}://${req.headers.host ?? 'localhost'}${path}`);
  } catch {
    return new URL(`${scheme}://localhost${path}`);
  }
}

/** One segment of a path, percent-decoded; a malformed escape is refused (400 `INVALID_PATH`). */
export function decodePathSegment(segment: string, path: string = segment): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw HttpRequestError.invalidPath(path);
  }
}

/**
 * The segments of a URL path, percent-decoded: `/threads/a%20b/messages` is `['threads', 'a b',
 * 'messages']` (empty segments dropped). A malformed escape (`%E0%A4%A`, a lone `%`) is the
 * client's mistake: refused with 400 `INVALID_PATH`, never a 500.
 */
export function decodePath(pathname: string): string[] {
  return pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => decodePathSegment(segment, pathname));
}
