import type { IncomingMessage } from 'node:http';
import { McpHttpError } from '../errors/mcp-http-error.js';

function isJson(contentType: string): boolean {
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * The JSON body of a POST: refused (415) unless `application/json`, refused (413) from its
 * Content-Length alone when that is over `limit`, and read no further than `limit` bytes when
 * it is chunked or its length lied. Not UTF-8 JSON: 400.
 */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const contentType = request.headers['content-type'] ?? '';
  if (!isJson(contentType)) throw McpHttpError.unsupportedMediaType(contentType);
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw McpHttpError.bodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > limit) throw McpHttpError.bodyTooLarge(limit);
    chunks.push(chunk);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw McpHttpError.malformedBody('it is not UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw McpHttpError.malformedBody((error as Error).message);
  }
}
