import { HttpRequestError } from '@skein/http';
import { SkeinError } from '@skein/spec';
import { ChatRequestError } from '../errors/chat-request-error.js';

// Other packages' codes that the chat answers with their own status.
const STATUS_OF: Readonly<Record<string, number>> = {
  // Another resume claimed the pause first: the same approval submitted twice.
  RESUME_CONFLICT: 409,
  THREAD_LEASED: 409,
  CHECKPOINT_NOT_FOUND: 404,
};

/** `{ error: { code, message } }` with the status the error calls for (400 for other SkeinErrors). */
export function errorResponse(error: unknown): Response {
  if (!SkeinError.isInstance(error))
    return Response.json(
      {
        error: {
          code: 'INTERNAL',
          message: error instanceof Error ? error.message : String(error),
        },
      },
      { status: 500 },
    );
  const status =
    ChatRequestError.isInstance(error) || HttpRequestError.isInstance(error)
      ? error.httpStatus
      : (STATUS_OF[error.code] ?? 400);
  return Response.json({ error: { code: error.code, message: error.message } }, { status });
}
