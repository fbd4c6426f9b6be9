import { SkeinError } from '@skein/spec';

/** The HTTP status each code is answered with. */
const HTTP_STATUS = {
  METHOD_NOT_ALLOWED: 405,
  PATH_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  SESSION_REQUIRED: 400,
  TOO_MANY_SESSIONS: 503,
} as const;

/**
 * The refusals of the MCP endpoint itself; those of the Host, Origin and body checks
 * (`HOST_NOT_ALLOWED` 421, `CROSS_ORIGIN_REFUSED` 403, `BODY_TOO_LARGE` 413,
 * `UNSUPPORTED_MEDIA_TYPE` 415, `INVALID_BODY` 400) are `@skein/http`'s `HttpRequestError`s.
 *
 * - `METHOD_NOT_ALLOWED` (405): not GET, POST or DELETE (`method`).
 * - `PATH_NOT_FOUND` (404): a path other than the MCP endpoint's (`path`).
 * - `SESSION_NOT_FOUND` (404): an `Mcp-Session-Id` this server does not know (closed, or never
 *   given): the client starts a new session.
 * - `SESSION_REQUIRED` (400): a request without a session that is not an `initialize`.
 * - `TOO_MANY_SESSIONS` (503): `maxSessions` sessions are open (`limit`).
 */
export type McpHttpErrorCode = keyof typeof HTTP_STATUS;

export interface McpHttpErrorFacts {
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
  declare readonly limit?: number;
  declare readonly method?: string;
  declare readonly path?: string;

  constructor(code: Code, message: string, facts: McpHttpErrorFacts = {}) {
    super(code, message, { facts });
    this.httpStatus = HTTP_STATUS[code];
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
