import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { base64ByteLength, decodeBase64 } from './base64.js';
import type { ContentPart, MediaPart } from './content-part.js';
import { isDataUrl, parseDataUrl } from './data-url.js';
import { isBytes } from './is-bytes.js';

/** True for an image, audio or file part. */
export function isMediaPart(part: ContentPart): part is MediaPart {
  return part.type !== 'text';
}

// UTF-8 length without encoding: 1 to 3 bytes per code unit, 4 per surrogate pair (a lone
// surrogate is 3, as U+FFFD, which is what an encoder writes for it).
function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) length += 1;
    else if (c < 0x800) length += 2;
    else if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 4;
      i++;
    } else length += 3;
  }
  return length;
}

/**
 * How many bytes a part holds: a text part's UTF-8 length; a media part's decoded length (its
 * bytes, its base64 or base64 `data:` URL decoded, or its `ref.size`); undefined for a part by
 * http(s) `url`, whose bytes Skein does not have. Assumes a part `checkContent` accepted.
 */
export function partByteLength(part: ContentPart): number | undefined {
  if (part.type === 'text') return utf8Length(part.text);
  if (part.ref !== undefined) return part.ref.size;
  if (part.url !== undefined) {
    if (!isDataUrl(part.url)) return undefined;
    const parsed = parseDataUrl(part.url);
    return 'problem' in parsed ? undefined : base64ByteLength(parsed.base64);
  }
  return isBytes(part.data) ? part.data.length : base64ByteLength(part.data);
}

/**
 * A media part's bytes when it holds them inline: its `Uint8Array` as is, its base64 (or base64
 * `data:` URL) decoded. Undefined for a part by http(s) `url` or by `ref`, whose bytes are
 * elsewhere (a provider fetches the one; a store loads the other). Throws
 * `InvalidArgumentError` naming `argument` for base64 that does not decode.
 */
export function partBytes(part: MediaPart, argument = 'part'): Uint8Array | undefined {
  if (part.ref !== undefined) return undefined;
  if (part.url !== undefined) {
    if (!isDataUrl(part.url)) return undefined;
    const parsed = parseDataUrl(part.url);
    if ('problem' in parsed)
      throw new InvalidArgumentError(`${argument}.url`, `${argument}.url: ${parsed.problem}`, {
        kind: 'url',
        problem: parsed.problem,
      });
    return decodeBase64(parsed.base64, `${argument}.url`);
  }
  return isBytes(part.data) ? part.data : decodeBase64(part.data, `${argument}.data`);
}
