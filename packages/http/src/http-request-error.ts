import { InvalidArgumentError, NotFoundError, SkeinError } from '@skein/spec';

/** The status each refusal is answered with. */
const STATUS = {
  HOST_NOT_ALLOWED: 421,
  CROSS_ORIGIN_REFUSED: 403,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_BODY: 400,
} as const;

export type HttpRequestErrorCode = keyof typeof STATUS;

/**
 * A request a local server refuses before it reaches the app (`@skein/http`'s own, the MCP and
 * chat servers): another Host name (a page that rebound its DNS name to 127.0.0.1), a write (or,
 * where the server says so, any request) from another origin, a body over the limit, not JSON,
 * or malformed. `httpStatus` is what it is answered with.
 */
export class HttpRequestError<
  C extends HttpRequestErrorCode = HttpRequestErrorCode,
> extends SkeinError<C> {
  static override readonly errorName = 'HttpRequestError';
  readonly httpStatus: (typeof STATUS)[C];

  constructor(code: C, message: string, facts: Readonly<Record<string, unknown>> = {}) {
    super(code, message, { facts });
    this.httpStatus = STATUS[code];
  }

  static hostNotAllowed(host: string): HttpRequestError<'HOST_NOT_ALLOWED'> {
    const named = host.slice(0, 100);
    return new HttpRequestError(
      'HOST_NOT_ALLOWED',
      `Host "${named}" is not this server: connect through 127.0.0.1, localhost or [::1] with its port`,
      { host: named },
    );
  }

  /** `origin` is the `Origin` header, or `Sec-Fetch-Site: <value>` when only that said so. */
  static crossOrigin(method: string, origin: string): HttpRequestError<'CROSS_ORIGIN_REFUSED'> {
    const from = origin.slice(0, 100);
    return new HttpRequestError(
      'CROSS_ORIGIN_REFUSED',
      `${method.slice(0, 20)} from ${from} refused: a page of another origin may not use this server`,
      { method: method.slice(0, 20), origin: from },
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
    const type = contentType.slice(0, 100);
    return new HttpRequestError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body must be application/json, got ${type === '' ? 'none' : `"${type}"`}`,
      { contentType: type },
    );
  }

  static invalidBody(problem: string): HttpRequestError<'INVALID_BODY'> {
    return new HttpRequestError('INVALID_BODY', `The request body ${problem}`, { problem });
  }
}

/** Engine errors a client caused by asking at the wrong time: 409 rather than 500. */
const CONFLICTS = new Set(['RESUME_CONFLICT', 'THREAD_STATE', 'THREAD_LEASED']);

/**
 * The status an error thrown while answering a request is answered with: a refusal's own, 400
 * for a bad argument or answer, 404 for something unknown, 409 for a thread not ready for it.
 */
export function statusOf(error: unknown): number {
  if (HttpRequestError.isInstance(error)) return error.httpStatus;
  if (InvalidArgumentError.isInstance(error)) return 400;
  if (NotFoundError.isInstance(error)) return 404;
  if (!SkeinError.isInstance(error)) return 500;
  if (CONFLICTS.has(error.code)) return 409;
  if (error.code === 'RESUME_INPUT_INVALID' || error.code.endsWith('_INVALID')) return 400;
  if (error.code.endsWith('_NOT_FOUND')) return 404;
  return 500;
}
