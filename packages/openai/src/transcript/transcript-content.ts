import { contentText, encodeBase64, type LLMMessage, type MediaPart } from '@skein/spec';
import { mediaTypeEssence } from '../client/parts/media-type-essence.js';
import { checkWireContent } from '../client/parts/to-chat-content.js';
import type { OpenAIUserContentPart } from '../client/wire-types.js';
import { transcriptPartError } from './transcript-part-error.js';
import { transcriptText } from './transcript-text.js';

/** Which media a transcript may carry: none (content in parts is refused), or user images. */
export type TranscriptMedia = 'none' | 'user-images';

/** What `transcriptContent` needs besides the message. */
export interface TranscriptContentOptions {
  readonly media: TranscriptMedia;
  /** The bytes of attachments (`ref` parts) by digest, read by the caller beforehand. */
  readonly attachments?: ReadonlyMap<string, Uint8Array>;
}

// By tag, not instanceof: bytes made in another realm (a worker, a vm context) are bytes too.
function isBytes(value: unknown): value is Uint8Array {
  return (
    ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]'
  );
}

function dataUrl(mediaType: string, base64: string): string {
  return `data:${mediaTypeEssence(mediaType)};base64,${base64}`;
}

/**
 * An image's URL as OpenAI fine-tuning takes it: http(s) kept (OpenAI fetches it), anything
 * inline (bytes, base64, a data: URL) or by ref as a base64 data: URL. A ref's bytes must be in
 * `attachments`; their length is checked against the ref, the digest is the reader's to check
 * (hashing is async in browsers, and a transcript is built synchronously).
 */
function imageUrl(
  part: MediaPart,
  messageIndex: number,
  partIndex: number,
  attachments: ReadonlyMap<string, Uint8Array> | undefined,
): string {
  if (part.url !== undefined) {
    if (!/^data:/i.test(part.url)) return part.url;
    return dataUrl(part.mediaType, part.url.slice(part.url.indexOf(',') + 1));
  }
  if (part.ref === undefined)
    return dataUrl(part.mediaType, isBytes(part.data) ? encodeBase64(part.data) : part.data!);
  const bytes = attachments?.get(part.ref.digest);
  if (bytes === undefined)
    throw transcriptPartError(
      messageIndex,
      partIndex,
      part,
      'ref',
      `the image is an attachment (${part.ref.digest}) and its bytes were not given (options.attachments)`,
    );
  if (bytes.length !== part.ref.size)
    throw transcriptPartError(
      messageIndex,
      partIndex,
      part,
      'ref',
      `the bytes given for ${part.ref.digest} are ${bytes.length} long, the attachment ${part.ref.size}`,
    );
  return dataUrl(part.mediaType, encodeBase64(bytes));
}

/**
 * A message's content for a transcript. With `media: 'none'`, text only (`transcriptText`). With
 * `user-images`, what OpenAI chat fine-tuning takes: a user message's parts as `text` and
 * `image_url` parts, in order; other roles' text parts joined. Audio, files and images outside a
 * user message are refused, named, rather than dropped: the model would learn from a turn that
 * no longer says what was shown.
 */
export function transcriptContent(
  message: LLMMessage,
  messageIndex: number,
  options: TranscriptContentOptions,
): string | OpenAIUserContentPart[] {
  if (options.media === 'none' || typeof message.content === 'string')
    return transcriptText(message, messageIndex);
  const parts = checkWireContent(message.content, `messages[${messageIndex}].content`);
  if (typeof parts === 'string') return parts;
  // An empty array is refused by the API ("expected an array with minimum length 1").
  if (parts.length === 0) return '';
  parts.forEach((part, partIndex) => {
    if (part.type === 'text') return;
    if (part.type !== 'image')
      throw transcriptPartError(
        messageIndex,
        partIndex,
        part,
        'part-type',
        `OpenAI chat fine-tuning takes images only, not ${part.type} parts`,
      );
    if (message.role !== 'user')
      throw transcriptPartError(
        messageIndex,
        partIndex,
        part,
        'role',
        `OpenAI chat fine-tuning takes images in user messages only, not in ${message.role === 'assistant' ? 'an assistant' : `a ${message.role}`} message`,
      );
  });
  if (message.role !== 'user') return contentText(parts);
  return parts.map(
    (part, partIndex): OpenAIUserContentPart =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : {
            type: 'image_url',
            image_url: { url: imageUrl(part, messageIndex, partIndex, options.attachments) },
          },
  );
}
