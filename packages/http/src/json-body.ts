import type { IncomingMessage } from 'node:http';
import { HttpRequestError } from './http-request-error.js';
import { isFetchRequest } from './request-guard.js';

/**
 * A request body as any server has it: its two headers and its bytes (a Node request is an async
 * iterable of them, and so is a fetch `Request`'s `body`).
 */
export interface JsonBodySource {
  readonly contentType: string | null | undefined;
  readonly contentLength: string | null | undefined;
  /** The body's bytes; `null` or `undefined` when the request has none. */
  readonly chunks: AsyncIterable<Uint8Array> | null | undefined;
}

/**
 * A fetch `Request`'s body, or a Node request's: none unless its head says one follows (a length
 * or chunked). A Node request read only in part is left open, not destroyed: the answer then
 * discards the rest (`sendError`), so the client reads the answer rather than a reset.
 */
function sourceOf(req: IncomingMessage | Request): JsonBodySource {
  if (isFetchRequest(req))
    return {
      contentType: req.headers.get('content-type'),
      contentLength: req.headers.get('content-length'),
      chunks: req.body,
    };
  const { headers } = req;
  const framed =
    headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
  return {
    contentType: headers['content-type'],
    contentLength: headers['content-length'],
    chunks: framed
      ? (req.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>)
      : undefined,
  };
}

/** The bytes of `chunks` up to `limit`; a source that fails mid-way is a body cut short. */
async function readLimited(chunks: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of chunks) {
      total += chunk.byteLength;
      // Leaving the loop stops reading: the rest is never read.
      if (total > limit) throw HttpRequestError.bodyTooLarge(limit);
      parts.push(chunk);
    }
  } catch (error) {
    if (HttpRequestError.isInstance(error)) throw error;
    throw HttpRequestError.bodyIncomplete(error);
  }
  return Buffer.concat(parts);
}

/**
 * The JSON body of a request (a Node request, a fetch `Request` or a `JsonBodySource`): refused
 * (415) unless `application/json`, refused (413) from its Content-Length alone when that is over
 * `limit`, and read no further than `limit` bytes when it is chunked or its length lied. No body
 * or an empty one is `undefined`; text that is not UTF-8 JSON is 400 `INVALID_BODY`; a body cut
 * short (the client hung up) is 400 `BODY_INCOMPLETE`. It never fails with anything else.
 */
export async function readJsonBody(
  from: IncomingMessage | Request | JsonBodySource,
  limit: number,
): Promise<unknown> {
  const { contentType, contentLength, chunks } = 'chunks' in from ? from : sourceOf(from);
  if (chunks == null) return undefined;
  const type = contentType ?? '';
  if (type.split(';', 1)[0]!.trim().toLowerCase() !== 'application/json')
    throw HttpRequestError.unsupportedMediaType(type);
  if (contentLength != null && Number(contentLength) > limit)
    throw HttpRequestError.bodyTooLarge(limit);
  const bytes = await readLimited(chunks, limit);
  if (bytes.byteLength === 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw HttpRequestError.invalidBody('is not UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw HttpRequestError.invalidBody(`is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * `body` as a JSON object, or refused (400 `INVALID_BODY`) saying what it was instead: none,
 * `null`, an array, a string… For the handler that takes `{ … }` and reads its fields.
 */
export function jsonObject(body: unknown): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body))
    return body as Record<string, unknown>;
  const got =
    body === undefined
      ? 'nothing (the body is empty)'
      : body === null
        ? 'null'
        : Array.isArray(body)
          ? 'an array'
          : `a ${typeof body}`;
  throw HttpRequestError.invalidBody(`must be a JSON object, got ${got}`);
}
