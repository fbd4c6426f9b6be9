import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { SkeinEngine, ThreadContext } from '@skein/core';
import { encodeBase64 } from '@skein/spec';
import { resourceNotFound } from '../publish/publication-errors.js';
import { attachedPart } from './attached-part.js';

/**
 * `skein://threads/<id>/attachments/<digest>`: the bytes of a media part of `thread` (one the
 * caller may see), as a base64 `blob` of the part's media type. A digest no message of the thread
 * refers to, or bytes the store does not hold, is "resource not found".
 */
export async function readAttachment(
  engine: SkeinEngine,
  thread: ThreadContext,
  digest: string,
  caller: string | undefined,
  uri: string,
): Promise<ReadResourceResult> {
  const part = attachedPart(thread, digest);
  const view = caller === undefined ? engine : engine.forPrincipal(caller);
  const bytes = part && (await view.readAttachment(thread.threadId, digest));
  if (part === undefined || bytes === undefined) throw resourceNotFound(uri);
  return { contents: [{ uri, mimeType: part.mediaType, blob: encodeBase64(bytes) }] };
}
