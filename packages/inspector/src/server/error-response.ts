import { SkeinError } from '@skein/spec';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { MethodNotAllowedError } from '../errors/method-not-allowed-error.js';

const STATUS_OF: Readonly<Record<string, ContentfulStatusCode>> = {
  RESUME_NOT_ALLOWED: 403,
  CROSS_ORIGIN_REFUSED: 403,
  CHECKPOINT_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  THREAD_NOT_PAUSED: 409,
  // Another resume claimed the pause first, or another process runs the thread.
  RESUME_CONFLICT: 409,
  THREAD_LEASED: 409,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HOST_NOT_ALLOWED: 421,
};

/** `{ error: { code, message } }` with the status the code calls for (400 for other SkeinErrors). */
export function errorResponse(error: Error, c: Context): Response {
  if (!SkeinError.isInstance(error))
    return c.json({ error: { code: 'INTERNAL', message: String(error) } }, 500);
  if (MethodNotAllowedError.isInstance(error)) c.header('Allow', error.allowed.join(', '));
  return c.json(
    { error: { code: error.code, message: error.message } },
    STATUS_OF[error.code] ?? 400,
  );
}
