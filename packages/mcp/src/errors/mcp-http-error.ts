import { SkeinError } from '@skein/spec';

/** The HTTP status each code is answered with. */
const HTTP_STATUS = {
  HOST_NOT_ALLOWED: 421,
  CROSS_ORIGIN_REFUSED: 403,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MALFORMED_BODY: 400,
  METHOD_NOT_ALLOWED: 405,
  PATH_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  SESSION_REQUIRED: 400,
  TOO_MANY_SESSIONS: 503,
} as const;

/**
 * - `HOST_NOT_ALLOWED` (421): the `Host` is not one the server answers for: a page on another
 *   site reaching it through a DNS name rebound to 127.0.0.1 (`host`).
 * - `CROSS_ORIGIN_REFUSED` (403): a browser says the request comes from another origin (`Origin`,
 *   or `Sec-Fetch-Site`): a page trying to drive the server through the user's browser (`from`).
 * - `BODY_TOO_LARGE` (413): a body over `maxBodyBytes`, refused from its Content-Length or as soon
 *   as it passed the limit (`limit`).
 * - `UNSUPPORTED_MEDIA_TYPE` (415): a POST whose body is not `application/json`.
 * - `MALFORMED_BODY` (400): a body that is not UTF-8 JSON.
 * - `METHOD_NOT_ALLOWED` (405): not GET, POST or DELETE (`method`).
 * - `PATH_NOT_FOUND` (404): a path other than the MCP endpoint's (`path`).
 * - `SESSION_NOT_FOUND` (404): an `Mcp-Session-Id` this server does not know (closed, or never
 *   given): the client starts a new session.
 * - `SESSION_REQUIRED` (400): a request without a session that is not an `initialize`.
 * - `TOO_MANY_SESSIONS` (503): `maxSessions` sessions are open (`limit`).
 */
export type McpHttpErrorCode = keyof typeof HTTP_STATUS;

export interface McpHttpErrorFacts {
  readonly host?: string;
  readonly from?: string;
  readonly limit?: number;
  readonly method?: string;
  readonly path?: string;
}

/**
 * A request the Streamable HTTP handler refuses before the MCP server sees it. Answered with
 * `httpStatus` and a JSON-RPC error body.
 */
export class McpHttpError<
  Code extends McpHttpErrorCode = McpHttpErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'McpHttpError';
  readonly httpStatus: (typeof HTTP_STATUS)[Code];
  declare readonly host?: string;
  declare readonly from?: string;
  declare readonly limit?: number;
  declare readonly method?: string;
  declare readonly path?: string;

  constructor(code: Code, message: string, facts: McpHttpErrorFacts = {}) {
    super(code, message, { facts });
    this.httpStatus = HTTP_STATUS[code];
  }

  static hostNotAllowed(host: string): McpHttpError<'HOST_NOT_ALLOWED'> {
    return new McpHttpError(
      'HOST_NOT_ALLOWED',
      `This MCP server does not answer for host "${host.slice(0, 100)}": connect through 127.0.0.1, localhost or [::1] with its port`,
      { host: host.slice(0, 100) },
    );
  }

  static crossOrigin(from: string): McpHttpError<'CROSS_ORIGIN_REFUSED'> {
    return new McpHttpError(
      'CROSS_ORIGIN_REFUSED',
      `A request from ${from.slice(0, 100)} refused: a web page may not drive this MCP server`,
      { from: from.slice(0, 100) },
    );
  }

  static bodyTooLarge(limit: number): McpHttpError<'BODY_TOO_LARGE'> {
    return new McpHttpError(
      'BODY_TOO_LARGE',
      `The request body is over the limit of ${limit} bytes`,
      {
        limit,
      },
    );
  }

  static unsupportedMediaType(contentType: string): McpHttpError<'UNSUPPORTED_MEDIA_TYPE'> {
    return new McpHttpError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The body must be application/json, not ${contentType === '' ? 'untyped' : `"${contentType.slice(0, 100)}"`}`,
    );
  }

  static malformedBody(reason: string): McpHttpError<'MALFORMED_BODY'> {
    return new McpHttpError('MALFORMED_BODY', `The request body is not JSON: ${reason}`);
  }

  static methodNotAllowed(method: string): McpHttpError<'METHOD_NOT_ALLOWED'> {
    return new McpHttpError(
      'METHOD_NOT_ALLOWED',
      `${method} is not allowed; use GET, POST or DELETE`,
      {
        method,
      },
    );
  }

  static pathNotFound(path: string): McpHttpError<'PATH_NOT_FOUND'> {
    return new McpHttpError('PATH_NOT_FOUND', `No MCP endpoint at ${path.slice(0, 200)}`, {
      path: path.slice(0, 200),
    });
  }

  static sessionNotFound(): McpHttpError<'SESSION_NOT_FOUND'> {
    return new McpHttpError(
      'SESSION_NOT_FOUND',
      'No such session: it was closed; initialize a new one',
    );
  }

  static sessionRequired(): McpHttpError<'SESSION_REQUIRED'> {
    return new McpHttpError(
      'SESSION_REQUIRED',
      'No Mcp-Session-Id header: initialize a session first',
    );
  }

  static tooManySessions(limit: number): McpHttpError<'TOO_MANY_SESSIONS'> {
    return new McpHttpError(
      'TOO_MANY_SESSIONS',
      `${limit} sessions are open, the most this server keeps; close one (DELETE) and try again`,
      { limit },
    );
  }
}
