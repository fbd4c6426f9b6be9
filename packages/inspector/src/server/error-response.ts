import { errorAnswer } from '@skein/http';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * `@skein/http`'s answer to an error (`statusOf`'s status, `{ error: { code, message } }`, `Allow`
 * for a 405), made through the context so the security headers come with it.
 */
export function errorResponse(error: Error, c: Context): Response {
  const { status, headers, body } = errorAnswer(error);
  return c.json(body, status as ContentfulStatusCode, headers);
}
