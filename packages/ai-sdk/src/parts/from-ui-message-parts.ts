import {
  type CheckContentOptions,
  type ContentPart,
  contentText,
  type MessageContent,
} from '@skein/spec';
import { checkMappedParts } from './check-mapped-parts.js';
import { hasMedia } from './has-media.js';
import { partTypeOf } from './part-type-of.js';

// Read field by field: the client's JSON, or the `ai` package's own part objects.
type UIPartLike = Readonly<Record<string, unknown>>;

function fromFilePart(part: UIPartLike): ContentPart {
  const mediaType = part.mediaType;
  const type = typeof mediaType === 'string' ? partTypeOf(mediaType) : 'file';
  // A browser names every attached file; an image or audio part has no filename field, and the
  // model gains nothing from it, so only a file part keeps it.
  const filename =
    type === 'file' && part.filename !== undefined ? { filename: part.filename } : {};
  return { type, mediaType, url: part.url, ...filename } as ContentPart;
}

// Checked first as a data: URL (so the check compares the URL's media type with mediaType),
// then kept as the base64 it holds: the stored form is the same whatever the client sent.
function inlined(part: ContentPart): ContentPart {
  if (part.type === 'text' || typeof part.url !== 'string' || !/^data:/i.test(part.url))
    return part;
  const { url, ...rest } = part;
  return { ...rest, data: url.slice(url.indexOf(',') + 1) } as ContentPart;
}

/**
 * A `useChat` message's parts as Skein content: text parts, and file parts as image, audio or
 * file parts by their media type (a data: URL decoded to base64 `data`, an http(s) url kept as
 * `url`). Parts that are not content (step starts, reasoning, tools, sources, data parts) are
 * left out. A plain string when only text remains, so text-only chats are what they were. Checked
 * as `checkContent` does: a bad part is an `InvalidArgumentError` naming it as the client sent it
 * (`messages[2].parts[1]`, for `at` = `messages[2].parts`).
 */
export function fromUIMessageParts(
  parts: readonly object[],
  at: string,
  options: CheckContentOptions = {},
): MessageContent {
  const mapped: ContentPart[] = [];
  const origin: number[] = [];
  (parts as readonly UIPartLike[]).forEach((part, index) => {
    if (part.type === 'text') mapped.push({ type: 'text', text: part.text } as ContentPart);
    else if (part.type === 'file') mapped.push(fromFilePart(part));
    else return;
    origin.push(index);
  });
  checkMappedParts(mapped, origin, at, options);
  if (!hasMedia(mapped)) return contentText(mapped);
  return mapped.map(inlined);
}
