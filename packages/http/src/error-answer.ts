import type { ServerResponse } from 'node:http';
import { SkeinError } from '@skein/spec';
import { HttpRequestError } from './http-request-error.js';
import { statusOf } from './status-of.js';
import { dropUnreadBody } from './unread-body.js';

/**
 * An error as a client is answered: its status, headers (`Allow` for a 405, `WWW-Authenticate`
 * for a 401) and JSON body.
 */
export interface ErrorAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly error: { readonly code: string; readonly message: string } };
}

/**
 * How `error` is answered on every surface: `statusOf`'s status and `{ error: { code, message } }`.
 * A refusal and a client's mistake say what was wrong; a 503 only its code and to try again; a
 * 500 only `INTERNAL_ERROR` and "internal error" (its message may say more than a client should
 * read).
 */
export function errorAnswer(error: unknown): ErrorAnswer {
  const status = statusOf(error);
  const refusal = HttpRequestError.isInstance(error) ? error : undefined;
  const headers: Record<string, string> = {};
  if (refusal?.allowed !== undefined) headers.allow = refusal.allowed.join(', ');
  if (refusal?.challenge !== undefined) headers['www-authenticate'] = refusal.challenge;
  if (SkeinError.isInstance(error) && (status < 500 || refusal !== undefined))
    return { status, headers, body: { error: { code: error.code, message: error.message } } };
  if (status === 503 && SkeinError.isInstance(error))
    return {
      status,
      headers,
      body: { error: { code: error.code, message: 'unavailable for now: try again' } },
    };
  return {
    status,
    headers,
    body: { error: { code: 'INTERNAL_ERROR', message: 'internal error' } },
  };
}

/** `errorAnswer(error)` as a fetch `Response`. */
export function errorResponse(error: unknown): Response {
  const { status, headers, body } = errorAnswer(error);
  return Response.json(body, { status, headers });
}

/**
 * Answers a Node request with `errorAnswer(error)`; after a stream began, just ends it. A body
 * left unread is dropped and the connection closed after the answer (`dropUnreadBody`).
 */
export function sendError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const { status, headers, body } = errorAnswer(error);
  const text = JSON.stringify(body);
  dropUnreadBody(res.req, res);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}
