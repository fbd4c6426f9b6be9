import { SkeinError } from '@skein/spec';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { InspectorRequestError } from '../errors/inspector-request-error.js';

// The codes of other packages' errors that the API answers with their own status; an
// InspectorRequestError carries its status.
const STATUS_OF: Readonly<Record<string, ContentfulStatusCode>> = {
  CHECKPOINT_NOT_FOUND: 404,
  // Another resume claimed the pause first, or another process runs the thread.
  RESUME_CONFLICT: 409,
  THREAD_LEASED: 409,
};

/** `{ error: { code, message } }` with the status the error calls for (400 for other SkeinErrors). */
export function errorResponse(error: Error, c: Context): Response {
  if (!SkeinError.isInstance(error))
    return c.json({ error: { code: 'INTERNAL', message: String(error) } }, 500);
  const status = InspectorRequestError.isInstance(error)
    ? error.httpStatus
    : (STATUS_OF[error.code] ?? 400);
  if (InspectorRequestError.isInstance(error) && error.allowed !== undefined)
    c.header('Allow', error.allowed.join(', '));
  return c.json({ error: { code: error.code, message: error.message } }, status);
}
