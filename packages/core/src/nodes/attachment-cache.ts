import type { AttachmentReader } from './attachment-bytes.js';

/** What an executor keeps of attachments it read, in bytes, unless told otherwise. */
const DEFAULT_ATTACHMENT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * `read` with the attachments it gave kept, newest used last, up to `maxBytes` in all: a loaded
 * thread's model calls (several a turn, each sending every image the view shows) read each
 * attachment once. Kept per thread and digest, so a thread gets from it only what the store gave
 * that thread. Bytes larger than the whole budget are not kept.
 */
export function cachedAttachmentReader(
  read: AttachmentReader,
  maxBytes = DEFAULT_ATTACHMENT_CACHE_BYTES,
): AttachmentReader {
  const kept = new Map<string, Uint8Array>();
  let total = 0;
  return async (threadId, digest) => {
    const key = `${threadId}\n${digest}`;
    const hit = kept.get(key);
    if (hit !== undefined) {
      kept.delete(key);
      kept.set(key, hit);
      return hit;
    }
    const bytes = await read(threadId, digest);
    if (bytes === undefined || bytes.length > maxBytes) return bytes;
    kept.set(key, bytes);
    total += bytes.length;
    for (const [oldest, value] of kept) {
      if (total <= maxBytes) break;
      kept.delete(oldest);
      total -= value.length;
    }
    return bytes;
  };
}
