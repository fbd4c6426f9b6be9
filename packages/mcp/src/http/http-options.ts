import { type Authorize, allowedOrigins, checkAuthorize } from '@skein/http';
import { InvalidArgumentError } from '@skein/spec';
import type { McpServerOptions } from '../server/mcp-server-options.js';
import { type McpBearerAuth, type ResolvedBearerAuth, resolveBearerAuth } from './bearer-auth.js';

export interface McpHttpOptions extends McpServerOptions {
  /** The endpoint's path (default `/mcp`); any other path is 404. */
  readonly path?: string;
  /**
   * The largest request body read, in bytes (default 4,194,304; at most 67,108,864). A larger one
   * is refused with 413 from its Content-Length alone, or as soon as a chunked one passes it.
   */
  readonly maxBodyBytes?: number;
  /** Sessions kept open at once (default 100); one more `initialize` is refused with 503. */
  readonly maxSessions?: number;
  /**
   * `Host` header values to answer besides 127.0.0.1, localhost and [::1] with the port the
   * request came in on (each as `name:port`), e.g. for a reverse proxy you run yourself.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins whose pages may call this server besides its own (a browser-based MCP client on
   * another origin of yours); every other browser origin is refused (403).
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * OAuth access tokens, as the MCP authorization spec asks: every request carries
   * `Authorization: Bearer <token>`, checked by the verifier; no token or a bad one is 401 with
   * `WWW-Authenticate: Bearer resource_metadata="…"`, and the metadata is served at
   * `/.well-known/oauth-protected-resource<path>`. The token's caller (`principalOf`) owns the
   * threads its calls start, and only those.
   */
  readonly bearerAuth?: McpBearerAuth;
  /**
   * Names the caller of each request by any other means (a session cookie, a header your proxy
   * sets), or refuses it (401): see `Authorize` in `@skein/http`. One of this or `bearerAuth`.
   */
  readonly authorize?: Authorize;
}

/** How requests name their caller: not at all, by the app's hook, or by bearer tokens. */
type HttpAuth =
  | { readonly kind: 'none' }
  | { readonly kind: 'authorize'; readonly authorize: Authorize }
  | { readonly kind: 'bearer'; readonly bearer: ResolvedBearerAuth };

export interface ResolvedHttpOptions {
  readonly path: string;
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: ReadonlySet<string> | undefined;
  readonly auth: HttpAuth;
}

function authOf(options: McpHttpOptions): HttpAuth {
  const authorize = checkAuthorize(options.authorize);
  if (authorize && options.bearerAuth)
    throw new InvalidArgumentError(
      'bearerAuth',
      'give authorize or bearerAuth, not both: each names the caller of every request',
    );
  if (authorize) return { kind: 'authorize', authorize };
  if (options.bearerAuth) return { kind: 'bearer', bearer: resolveBearerAuth(options.bearerAuth) };
  return { kind: 'none' };
}

function integer(name: string, value: number | undefined, fallback: number, max: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < 1 || chosen > max)
    throw new InvalidArgumentError(
      name,
      `${name} must be an integer from 1 to ${max}, got ${String(chosen)}`,
    );
  return chosen;
}

export function resolveHttpOptions(options: McpHttpOptions): ResolvedHttpOptions {
  const path = options.path ?? '/mcp';
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new InvalidArgumentError('path', `path must start with "/", got ${JSON.stringify(path)}`);
  const allowedHosts = options.allowedHosts ?? [];
  if (!Array.isArray(allowedHosts) || allowedHosts.some((h) => typeof h !== 'string' || h === ''))
    throw new InvalidArgumentError('allowedHosts', 'allowedHosts must be an array of host names');
  return {
    path,
    maxBodyBytes: integer('maxBodyBytes', options.maxBodyBytes, 4 * 1024 * 1024, 64 * 1024 * 1024),
    maxSessions: integer('maxSessions', options.maxSessions, 100, 100_000),
    allowedHosts,
    allowedOrigins:
      options.allowedOrigins === undefined ? undefined : allowedOrigins(options.allowedOrigins),
    auth: authOf(options),
  };
}
