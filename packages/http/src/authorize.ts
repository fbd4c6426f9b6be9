import type { IncomingMessage } from 'node:http';
import { describeValue, InvalidArgumentError, principalProblem, SkeinError } from '@skein/spec';
import { HttpRequestError } from './http-request-error.js';
import { isFetchRequest } from './request-guard.js';
import { requestUrl } from './request-path.js';

/**
 * Names the caller of a request: its principal (a user id, a token's subject; a non-empty string),
 * or undefined when the request names no one the app accepts (401). It sees the method, URL and
 * headers (a bearer token, a session cookie), not the body. It may refuse by throwing
 * `HttpRequestError.unauthorized(message, challenge)` too (a bad token: its own challenge); any
 * other error it throws is answered by its status (500 saying only `INTERNAL_ERROR`).
 */
export type Authorize = (request: Request) => string | undefined | Promise<string | undefined>;

/** `value` as an `authorize` option: a function, else `InvalidArgumentError` naming `argument`. */
export function checkAuthorize(value: unknown, argument = 'authorize'): Authorize | undefined {
  if (value === undefined || typeof value === 'function') return value as Authorize | undefined;
  throw new InvalidArgumentError(
    argument,
    `${argument} must be a function (request) => principal, got ${describeValue(value)}`,
  );
}

/** Methods a fetch `Request` cannot have: no surface answers them. */
const UNREPRESENTABLE = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The request a hook sees: its method, URL and headers; the body stays for the surface to read. */
function headOf(request: Request | IncomingMessage): Request {
  if (isFetchRequest(request))
    return new Request(request.url, { method: request.method, headers: request.headers });
  const method = request.method ?? 'GET';
  if (UNREPRESENTABLE.has(method.toUpperCase()))
    throw HttpRequestError.methodNotAllowed(method, [
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
    ]);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return new Request(requestUrl(request), { method, headers });
}

/**
 * Runs `authorize` on `request` (a fetch `Request`, or a Node request, which it sees as one) and
 * resolves to the caller's principal. No caller is a 401 `UNAUTHORIZED` with `challenge` as its
 * `WWW-Authenticate` (default `Bearer realm="skein"`); a hook that returns something that cannot
 * be a principal is the app's mistake, not the client's: a `SkeinError`
 * (`AUTHORIZE_RESULT_INVALID`, 500) naming what it returned.
 */
export async function authorizeRequest(
  authorize: Authorize,
  request: Request | IncomingMessage,
  challenge?: string,
): Promise<string> {
  const principal: unknown = await authorize(headOf(request));
  if (principal === undefined) throw HttpRequestError.unauthorized(undefined, challenge);
  const problem = principalProblem(principal);
  if (problem)
    throw new SkeinError(
      'AUTHORIZE_RESULT_INVALID',
      `authorize returned ${describeValue(principal)}, which cannot name a caller: ${problem}`,
    );
  return principal as string;
}
