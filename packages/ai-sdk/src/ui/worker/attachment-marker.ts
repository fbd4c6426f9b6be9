import { attachmentDigest } from '@skein/core/store-kit';
import { encodeBase64, partBytes } from '@skein/spec';
import type { UIChunk } from '../ui-chunk.js';

/**
 * What the parts log keeps of a `file` chunk whose bytes a data: URL carries: the digest the
 * thread's store keeps them by, not the bytes again (a reader reads them from the store).
 */
export interface AttachmentMarker {
  readonly type: 'skein-attachment';
  readonly mediaType: string;
  readonly digest: string;
}

/** A part as the log holds it: a UI chunk, an attachment's marker, or `null` for the end. */
export type LoggedPart = UIChunk | AttachmentMarker | null;

/** Reads an attachment of a thread (`engine.readAttachment`). */
export type ReadAttachment = (threadId: string, digest: string) => Promise<Uint8Array | undefined>;

/** The marker for `chunk` when it is a `file` chunk carrying its bytes, else undefined. */
export function markerOf(chunk: UIChunk): AttachmentMarker | undefined {
  if (chunk.type !== 'file' || !chunk.url.startsWith('data:')) return undefined;
  const { mediaType } = chunk;
  try {
    const bytes = partBytes({ type: 'file', mediaType, url: chunk.url });
    return bytes && { type: 'skein-attachment', mediaType, digest: attachmentDigest(bytes) };
  } catch {
    // A data: URL that does not decode is logged as it is.
    return undefined;
  }
}

export function isMarker(part: LoggedPart): part is AttachmentMarker {
  return part !== null && part.type === 'skein-attachment';
}

/** The `file` chunk a marker stands for, its bytes read from the thread's store (or undefined). */
export async function chunkOf(
  marker: AttachmentMarker,
  threadId: string,
  read: ReadAttachment,
): Promise<UIChunk | undefined> {
  const bytes = await read(threadId, marker.digest);
  return (
    bytes && {
      type: 'file',
      mediaType: marker.mediaType,
      url: `data:${marker.mediaType};base64,${encodeBase64(bytes)}`,
    }
  );
}
