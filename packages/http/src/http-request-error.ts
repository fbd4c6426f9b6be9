import { SkeinError, type SkeinErrorOptions, type ThreadStatus } from '@skein/spec';

/**
 * The status each refusal is answered with: the one table of every Skein HTTP surface (the
 * guards and bodies of all of them, then the codes of `@skein/inspector`, `@skein/ai-sdk`'s chat
 * and `@skein/mcp`). Engine errors get theirs from `statusOf`.
 */
const STATUS = {
  UNAUTHORIZED: 401,
  HOST_NOT_ALLOWED: 421,
  CROSS_ORIGIN_REFUSED: 403,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_BODY: 400,
  BODY_INCOMPLETE: 400,
  INVALID_PATH: 400,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  RESUME_NOT_ALLOWED: 403,
  FORK_NOT_ALLOWED: 403,
  THREAD_NOT_PAUSED: 409,
  BAD_CHAT_REQUEST: 400,
  HISTORY_MISMATCH: 409,
  CHAT_BUSY: 409,
  APPROVAL_NOT_PENDING: 409,
  NOTHING_TO_REGENERATE: 409,
  CHAT_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  SESSION_REQUIRED: 400,
  TOO_MANY_SESSIONS: 503,
  INSUFFICIENT_SCOPE: 403,
} as const;

/**
 * Every surface:
 * - `UNAUTHORIZED` (401, a `WWW-Authenticate` header from `challenge`): the surface's `authorize`
 *   hook named no caller, or refused the one it was given (a bad or expired token).
 * - `HOST_NOT_ALLOWED` (421): a Host (or an absolute-form target) that is not this server: a page
 *   that rebound its DNS name to 127.0.0.1 (`host`).
 * - `CROSS_ORIGIN_REFUSED` (403): a write (or, where the server says so, any request) from
 *   another origin (`method`, `origin`).
 * - `BODY_TOO_LARGE` (413): a body over the server's limit; the rest was not read (`limit`).
 * - `UNSUPPORTED_MEDIA_TYPE` (415): a body that is not `application/json` (`contentType`).
 * - `INVALID_BODY` (400): a body that is not UTF-8 JSON, or not the JSON asked for (`problem`).
 * - `BODY_INCOMPLETE` (400): the body ended before its end: the client went away mid-body.
 * - `INVALID_PATH` (400): a path with a malformed percent-escape (`path`).
 * - `ROUTE_NOT_FOUND` (404) / `METHOD_NOT_ALLOWED` (405, an `Allow` header from `allowed`): no
 *   endpoint there, or not for that method (`path`, `method`, `allowed`).
 *
 * `@skein/inspector`: `RESUME_NOT_ALLOWED` / `FORK_NOT_ALLOWED` (403: read-only, or no engine;
 * `threadId`, `reason`), `THREAD_NOT_PAUSED` (409: nothing to answer; `threadId`, `threadStatus`).
 *
 * `@skein/ai-sdk`'s chat (`chatId`, `field` where in the body): `BAD_CHAT_REQUEST` (400: not what
 * `useChat` sends), `HISTORY_MISMATCH` (409: the client's messages differ from the stored ones),
 * `CHAT_BUSY` (409: the chat is answering), `APPROVAL_NOT_PENDING` (409: no such approval waits),
 * `NOTHING_TO_REGENERATE` (409), `CHAT_NOT_FOUND` (404).
 *
 * `@skein/mcp`: `SESSION_NOT_FOUND` (404: closed or never given, or another caller's; initialize
 * a new one), `SESSION_REQUIRED` (400: no session and not an `initialize`), `TOO_MANY_SESSIONS`
 * (503: `limit` sessions are open), `INSUFFICIENT_SCOPE` (403, with `challenge`: the access
 * token lacks a scope the server requires).
 */
export type HttpRequestErrorCode = keyof typeof STATUS;

/** What a refusal can say; each code has some of these (see the list of codes). */
export interface HttpRequestErrorFacts {
  /** The `Host` header as sent, cut to 100 characters. */
  readonly host?: string;
  readonly method?: string;
  /** The `Origin` header, or `Sec-Fetch-Site: <value>` when only that said so. */
  readonly origin?: string;
  readonly contentType?: string;
  /** The largest body read, in bytes; or the most sessions kept. */
  readonly limit?: number;
  /** What is wrong with the body. */
  readonly problem?: string;
  readonly path?: string;
  /** The methods the route takes: the `Allow` header of a 405. */
  readonly allowed?: readonly string[];
  readonly threadId?: string;
  /** `read-only` (not allowed by the server's options) or `no-engine` (none to run a thread). */
  readonly reason?: 'read-only' | 'no-engine';
  readonly threadStatus?: ThreadStatus;
  readonly chatId?: string;
  /** Where in the request body the problem is (`messages[3].parts`). */
  readonly field?: string;
  /** The `WWW-Authenticate` header a 401 is answered with (`Bearer realm="…"`). */
  readonly challenge?: string;
}

const cut = (text: string, length = 100) => text.slice(0, length);

/** What a 401 says when its surface names no scheme of its own. */
const DEFAULT_CHALLENGE = 'Bearer realm="skein"';

/**
 * A request a Skein HTTP surface refuses, before or instead of doing anything: `httpStatus` is
 * what it is answered with, the facts are fields. Never retryable: the same request is refused
 * again.
 */
export class HttpRequestError<
  C extends HttpRequestErrorCode = HttpRequestErrorCode,
> extends SkeinError<C> {
  static override readonly errorName = 'HttpRequestError';
  readonly httpStatus: (typeof STATUS)[C];
  declare readonly host?: string;
  declare readonly method?: string;
  declare readonly origin?: string;
  declare readonly contentType?: string;
  declare readonly limit?: number;
  declare readonly problem?: string;
  declare readonly path?: string;
  declare readonly allowed?: readonly string[];
  declare readonly threadId?: string;
  declare readonly reason?: 'read-only' | 'no-engine';
  declare readonly threadStatus?: ThreadStatus;
  declare readonly chatId?: string;
  declare readonly field?: string;
  declare readonly challenge?: string;

  /** `facts` become fields (those not undefined) and, unless `options.details` is given, `details`. */
  constructor(
    code: C,
    message: string,
    facts: HttpRequestErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
    this.httpStatus = STATUS[code];
  }

  /**
   * The caller could not be named: no credentials, or credentials refused. `challenge` is the
   * `WWW-Authenticate` header of the answer (`formatChallenge` builds one; default
   * `Bearer realm="skein"`): a 401 must say how to authenticate.
   */
  static unauthorized(
    message = 'Authentication required: this request names no caller the server accepts',
    challenge: string = DEFAULT_CHALLENGE,
  ): HttpRequestError<'UNAUTHORIZED'> {
    return new HttpRequestError('UNAUTHORIZED', cut(message, 300), { challenge });
  }

  static hostNotAllowed(host: string): HttpRequestError<'HOST_NOT_ALLOWED'> {
    const named = cut(host);
    return new HttpRequestError(
      'HOST_NOT_ALLOWED',
      `Host "${named}" is not this server: connect through 127.0.0.1, localhost or [::1] with its port`,
      { host: named },
    );
  }

  /** `origin` is the `Origin` header, or `Sec-Fetch-Site: <value>` when only that said so. */
  static crossOrigin(method: string, origin: string): HttpRequestError<'CROSS_ORIGIN_REFUSED'> {
    const from = cut(origin);
    return new HttpRequestError(
      'CROSS_ORIGIN_REFUSED',
      `${cut(method, 20)} from ${from} refused: a page of another origin may not use this server`,
      { method: cut(method, 20), origin: from },
    );
  }

  static bodyTooLarge(limit: number): HttpRequestError<'BODY_TOO_LARGE'> {
    return new HttpRequestError(
      'BODY_TOO_LARGE',
      `The request body is over ${limit} bytes; it was not read`,
      { limit },
    );
  }

  static unsupportedMediaType(contentType: string): HttpRequestError<'UNSUPPORTED_MEDIA_TYPE'> {
    const type = cut(contentType);
    return new HttpRequestError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body must be application/json, got ${type === '' ? 'none' : `"${type}"`}`,
      { contentType: type },
    );
  }

  /** `problem` completes "The request body …": `is not valid JSON: …`. */
  static invalidBody(problem: string): HttpRequestError<'INVALID_BODY'> {
    return new HttpRequestError('INVALID_BODY', `The request body ${problem}`, { problem });
  }

  static bodyIncomplete(cause: unknown): HttpRequestError<'BODY_INCOMPLETE'> {
    return new HttpRequestError(
      'BODY_INCOMPLETE',
      'The request body ended before its end: the client went away while sending it',
      {},
      { cause },
    );
  }

  static invalidPath(path: string): HttpRequestError<'INVALID_PATH'> {
    const named = cut(path, 200);
    return new HttpRequestError(
      'INVALID_PATH',
      `The path ${named} has a malformed percent-escape (% must be followed by two hex digits of UTF-8)`,
      { path: named },
    );
  }

  static routeNotFound(path: string): HttpRequestError<'ROUTE_NOT_FOUND'> {
    const named = cut(path, 200);
    return new HttpRequestError('ROUTE_NOT_FOUND', `No endpoint at ${named}`, { path: named });
  }

  static methodNotAllowed(
    method: string,
    allowed: readonly string[],
  ): HttpRequestError<'METHOD_NOT_ALLOWED'> {
    const named = cut(method, 20);
    return new HttpRequestError(
      'METHOD_NOT_ALLOWED',
      `${named} is not allowed here; use ${allowed.join(' or ')}`,
      { method: named, allowed },
    );
  }
}
