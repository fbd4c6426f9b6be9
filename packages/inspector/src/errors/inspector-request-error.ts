import { SkeinError, type SkeinErrorOptions, type ThreadStatus } from '@skein/spec';

/** The HTTP status each code is answered with. */
const HTTP_STATUS = {
  HOST_NOT_ALLOWED: 421,
  CROSS_ORIGIN_REFUSED: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  BODY_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  ROUTE_NOT_FOUND: 404,
  RESUME_NOT_ALLOWED: 403,
  FORK_NOT_ALLOWED: 403,
  THREAD_NOT_PAUSED: 409,
} as const;

/**
 * - `HOST_NOT_ALLOWED` (421 Misdirected Request): a request named a host the inspector is not
 *   bound to: a page on another site reaching the inspector through a DNS name rebound to
 *   127.0.0.1 (`host`).
 * - `CROSS_ORIGIN_REFUSED` (403): a state-changing request came from another origin (its `Origin`
 *   or `Sec-Fetch-Site` says so): a page on another site trying to act through the user's browser
 *   (`method`, `from`).
 * - `UNSUPPORTED_MEDIA_TYPE` (415): a state-changing request whose body is not `application/json`.
 *   Forms and simple cross-site requests can only send other types, so the API takes no other
 *   (`contentType`).
 * - `BODY_TOO_LARGE` (413): a request body over the inspector's `maxBodyBytes`; it was not read
 *   further (`limit`).
 * - `METHOD_NOT_ALLOWED` (405, with an `Allow` header): a route asked with a method it does not
 *   take (`method`, `allowed`).
 * - `ROUTE_NOT_FOUND` (404): a path under /api that no endpoint has (`path`).
 * - `RESUME_NOT_ALLOWED` (403): the page asked to answer a paused thread, but this inspector is
 *   read-only or has no engine (`threadId`, `reason`).
 * - `FORK_NOT_ALLOWED` (403): the page asked to fork a thread, but this inspector does not allow
 *   forking or has no engine (`threadId`, `reason`).
 * - `THREAD_NOT_PAUSED` (409): an answer was sent for a thread that is not waiting for one
 *   (`threadId`, `threadStatus`; `details.status`).
 */
export type InspectorRequestErrorCode = keyof typeof HTTP_STATUS;

/** What an InspectorRequestError can say; each code has some of these (see the factories). */
export interface InspectorRequestErrorFacts {
  /** The `Host` header as sent, empty when there was none (`HOST_NOT_ALLOWED`). */
  readonly host?: string;
  /** The request's method (`CROSS_ORIGIN_REFUSED`, `METHOD_NOT_ALLOWED`). */
  readonly method?: string;
  /** The `Origin` header, or `Sec-Fetch-Site: <value>` when that gave it away (`CROSS_ORIGIN_REFUSED`). */
  readonly from?: string;
  /** The `Content-Type` header as sent, empty when there was none (`UNSUPPORTED_MEDIA_TYPE`). */
  readonly contentType?: string;
  /** The largest body read, in bytes (`BODY_TOO_LARGE`). */
  readonly limit?: number;
  /** The methods the route takes (`METHOD_NOT_ALLOWED`). */
  readonly allowed?: readonly string[];
  /** The path asked for (`ROUTE_NOT_FOUND`). */
  readonly path?: string;
  readonly threadId?: string;
  /**
   * `read-only` (no `allowResume` / `allowFork`) or `no-engine` (no engine to run the thread)
   * (`RESUME_NOT_ALLOWED`, `FORK_NOT_ALLOWED`).
   */
  readonly reason?: 'read-only' | 'no-engine';
  /** The thread's status (`THREAD_NOT_PAUSED`). */
  readonly threadStatus?: ThreadStatus;
}

/**
 * A request the inspector's HTTP API refuses. `httpStatus` is the status it is answered with;
 * the body is `{ error: { code, message } }`. Never retryable: the same request is refused again.
 */
export class InspectorRequestError<
  Code extends InspectorRequestErrorCode = InspectorRequestErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'InspectorRequestError';
  /** The HTTP status the refusal is answered with. */
  readonly httpStatus: (typeof HTTP_STATUS)[Code];
  declare readonly host?: string;
  declare readonly method?: string;
  declare readonly from?: string;
  declare readonly contentType?: string;
  declare readonly limit?: number;
  declare readonly allowed?: readonly string[];
  declare readonly path?: string;
  declare readonly threadId?: string;
  declare readonly reason?: 'read-only' | 'no-engine';
  declare readonly threadStatus?: ThreadStatus;

  /** `facts` become fields (those not undefined) and, unless `options.details` is given, `details`. */
  constructor(
    code: Code,
    message: string,
    facts: InspectorRequestErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
    this.httpStatus = HTTP_STATUS[code];
  }

  static hostNotAllowed(host: string): InspectorRequestError<'HOST_NOT_ALLOWED'> {
    return new InspectorRequestError(
      'HOST_NOT_ALLOWED',
      `This inspector does not answer for host "${host}": open it through 127.0.0.1, localhost or [::1] with its port`,
      { host },
    );
  }

  static crossOrigin(method: string, from: string): InspectorRequestError<'CROSS_ORIGIN_REFUSED'> {
    return new InspectorRequestError(
      'CROSS_ORIGIN_REFUSED',
      `${method} from ${from} refused: only the inspector's own page may change anything`,
      { method, from },
    );
  }

  static unsupportedMediaType(
    contentType: string,
  ): InspectorRequestError<'UNSUPPORTED_MEDIA_TYPE'> {
    return new InspectorRequestError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The body must be application/json, not ${contentType === '' ? 'untyped' : `"${contentType}"`}`,
      { contentType },
    );
  }

  static bodyTooLarge(limit: number): InspectorRequestError<'BODY_TOO_LARGE'> {
    return new InspectorRequestError(
      'BODY_TOO_LARGE',
      `The request body is over the limit of ${limit} bytes`,
      { limit },
    );
  }

  static methodNotAllowed(
    method: string,
    allowed: readonly string[],
  ): InspectorRequestError<'METHOD_NOT_ALLOWED'> {
    return new InspectorRequestError(
      'METHOD_NOT_ALLOWED',
      `${method} is not allowed here; use ${allowed.join(' or ')}`,
      { method, allowed },
    );
  }

  static routeNotFound(path: string): InspectorRequestError<'ROUTE_NOT_FOUND'> {
    return new InspectorRequestError('ROUTE_NOT_FOUND', `No endpoint at ${path}`, { path });
  }

  static resumeNotAllowed(
    threadId: string,
    reason: 'read-only' | 'no-engine',
  ): InspectorRequestError<'RESUME_NOT_ALLOWED'> {
    return new InspectorRequestError(
      'RESUME_NOT_ALLOWED',
      reason === 'read-only'
        ? `Thread ${threadId} cannot be resumed from this inspector: it is read-only (start it with allowResume: true and an engine)`
        : `Thread ${threadId} cannot be resumed from this inspector: it has no engine to run the thread (pass engine to startInspector)`,
      { threadId, reason },
    );
  }

  static forkNotAllowed(
    threadId: string,
    reason: 'read-only' | 'no-engine',
  ): InspectorRequestError<'FORK_NOT_ALLOWED'> {
    return new InspectorRequestError(
      'FORK_NOT_ALLOWED',
      reason === 'read-only'
        ? `Thread ${threadId} cannot be forked from this inspector: forking is not allowed (start it with allowFork: true and an engine)`
        : `Thread ${threadId} cannot be forked from this inspector: it has no engine to run the fork (pass engine to startInspector)`,
      { threadId, reason },
    );
  }

  static threadNotPaused(
    threadId: string,
    status: ThreadStatus,
  ): InspectorRequestError<'THREAD_NOT_PAUSED'> {
    return new InspectorRequestError(
      'THREAD_NOT_PAUSED',
      `Thread ${threadId} is ${status}, not PAUSED: there is nothing to answer`,
      { threadId, threadStatus: status },
      { details: { threadId, status } },
    );
  }
}
