import { InvalidArgumentError } from '@skein/spec';
import { InspectorRequestError } from '../errors/inspector-request-error.js';

function isJson(contentType: string): boolean {
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number) {
  const chunks: Uint8Array[] = [];
  if (body === null) return chunks;
  const reader = body.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw InspectorRequestError.bodyTooLarge(limit);
    }
    chunks.push(value);
  }
}

/**
 * The JSON body of a state-changing request, read only once it is known to be wanted: refused
 * (415) unless `application/json`, refused (413) from its Content-Length alone when that is over
 * `limit`, and read no further than `limit` bytes when it is chunked. Malformed JSON is 400.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!isJson(contentType)) throw InspectorRequestError.unsupportedMediaType(contentType);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit)
    throw InspectorRequestError.bodyTooLarge(limit);
  const chunks = await readLimited(request.body, limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new InvalidArgumentError('body', 'The request body is not UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvalidArgumentError(
      'body',
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}
