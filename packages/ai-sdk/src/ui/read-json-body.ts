import { ChatRequestError } from '../errors/chat-request-error.js';

function tooLarge(limit: number): ChatRequestError<'BODY_TOO_LARGE'> {
  return new ChatRequestError('BODY_TOO_LARGE', `The request body is over ${limit} bytes`, {
    limit,
  });
}

/**
 * The JSON body of a POST: refused (415) unless `application/json` (a form or a simple
 * cross-site request cannot send that type), refused (413) from its Content-Length when that is
 * over `limit`, and read no further than `limit` bytes otherwise.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  if (contentType.split(';', 1)[0]!.trim().toLowerCase() !== 'application/json')
    throw new ChatRequestError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body must be application/json, got "${contentType}"`,
      { contentType },
    );
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw ChatRequestError.badRequest('body', 'is not UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw ChatRequestError.badRequest('body', `is not valid JSON: ${(error as Error).message}`);
  }
}
