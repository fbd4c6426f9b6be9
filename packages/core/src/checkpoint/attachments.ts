import { createHash } from 'node:crypto';
import { imageSize } from '@skein/conversation';
import {
  type AttachmentRef,
  type ContentPart,
  type LLMMessage,
  type MediaPart,
  partBytes,
} from '@skein/spec';

/** An attachment's bytes as a store writes them once, keyed by `digest`. */
export interface StoredAttachment {
  readonly digest: string;
  /** The media type of the part that brought the bytes first (later parts keep their own). */
  readonly mediaType: string;
  readonly bytes: Uint8Array;
  readonly width?: number;
  readonly height?: number;
}

/**
 * A thread refers to `digest` from its message at `position` (the first one that does). What
 * `readAttachment` checks, and what a fork inherits below its fork point.
 */
export interface AttachmentUse {
  readonly digest: string;
  readonly position: number;
}

/** New messages with their inline media swapped for refs, and what the store writes for them. */
export interface ExtractedAttachments {
  readonly messages: readonly LLMMessage[];
  readonly attachments: readonly StoredAttachment[];
  readonly uses: readonly AttachmentUse[];
}

/** `sha256:` and the lowercase hex SHA-256 of `bytes`: an `AttachmentRef.digest`. */
export function attachmentDigest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

// A JPEG may state its size after its EXIF block: read that much of the start.
const SIZE_HEADER_BYTES = 64 * 1024;

const MEDIA_TYPES = new Set(['image', 'audio', 'file']);

function isMedia(part: unknown): part is MediaPart {
  return typeof part === 'object' && part !== null && MEDIA_TYPES.has((part as ContentPart).type);
}

/** A message whose content is a list holding a media part (anything else is left to the codec's JSON checks). */
function holdsMedia(message: LLMMessage): boolean {
  const content: unknown = message?.content;
  return Array.isArray(content) && content.some(isMedia);
}

function refPart(part: MediaPart, ref: AttachmentRef): ContentPart {
  const { data: _data, url: _url, ref: _ref, ...rest } = part;
  return Object.freeze({ ...rest, ref: Object.freeze(ref) }) as ContentPart;
}

/**
 * Swaps each inline media part of `messages` (bytes, base64, a base64 `data:` URL) for a `ref`
 * by the SHA-256 of its bytes, keeping an image's width and height where its header states them,
 * and lists each distinct attachment once with the first position that uses it (`from` is the
 * first message's position in the thread). A part already by `ref` is a use; one by http(s) URL
 * stays as it is. A message with no inline media is returned as it is. Base64 that does not decode is an
 * `InvalidArgumentError` naming the part (`checkpoint.conversation.messages[2].content[1]`).
 */
export function extractAttachments(
  messages: readonly LLMMessage[],
  from: number,
): ExtractedAttachments {
  // Most checkpoints hold text only: nothing to swap, nothing allocated.
  if (!messages.some(holdsMedia)) return { messages, attachments: [], uses: [] };
  const attachments = new Map<string, StoredAttachment>();
  const uses = new Map<string, number>();
  const out = messages.map((message, i) => {
    if (!holdsMedia(message)) return message;
    const content = message.content;
    const position = from + i;
    let swapped = false;
    const parts = (content as ContentPart[]).map((part, j) => {
      if (!isMedia(part)) return part;
      if (part.ref !== undefined) {
        if (!uses.has(part.ref.digest)) uses.set(part.ref.digest, position);
        return part;
      }
      const bytes = partBytes(part, `checkpoint.conversation.messages[${i}].content[${j}]`);
      if (bytes === undefined) return part;
      const digest = attachmentDigest(bytes);
      const size =
        part.type === 'image' ? imageSize(bytes.subarray(0, SIZE_HEADER_BYTES)) : undefined;
      swapped = true;
      if (!attachments.has(digest))
        attachments.set(digest, { digest, mediaType: part.mediaType, bytes, ...size });
      if (!uses.has(digest)) uses.set(digest, position);
      return refPart(part, { digest, size: bytes.length, ...size });
    });
    return swapped ? Object.freeze({ ...message, content: Object.freeze(parts) }) : message;
  });
  return {
    messages: out,
    attachments: [...attachments.values()],
    uses: [...uses].map(([digest, position]) => ({ digest, position })),
  };
}
