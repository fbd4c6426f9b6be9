import type { IncomingMessage } from 'node:http';
import { HttpRequestError } from './http-request-error.js';

/**
 * The JSON body of `req`: refused (415) unless `application/json`, refused (413) from its
 * Content-Length alone when that is over `limit`, and read no further than `limit` bytes when it
 * is chunked. An empty body is `undefined`; text that is not UTF-8 JSON is 400.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = req.headers['content-length'];
  if (declared === undefined && req.headers['transfer-encoding'] === undefined) return undefined;
  const contentType = req.headers['content-type'] ?? '';
  if (contentType.split(';', 1)[0]!.trim().toLowerCase() !== 'application/json')
    throw HttpRequestError.unsupportedMediaType(contentType);
  if (declared !== undefined && Number(declared) > limit)
    throw HttpRequestError.bodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    // The rest is never read: the answer closes the connection (see `serveLocal`).
    if (total > limit) throw HttpRequestError.bodyTooLarge(limit);
    chunks.push(chunk);
  }
  if (total === 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw HttpRequestError.invalidBody('is not UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw HttpRequestError.invalidBody(`is not valid JSON: ${(error as Error).message}`);
  }
}
