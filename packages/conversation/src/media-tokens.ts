import { decodeBase64, type MediaPart, partBytes } from '@skein/spec';
import { type ImageSize, imageSize } from './image-size.js';

/** An image of unknown size counts as a 1024x1024 one at high detail: 4 tiles, 765 tokens. */
const UNKNOWN_IMAGE_TOKENS = 765;
/** An audio part, whose length is not known without decoding: about a minute at ~10 tokens/s. */
const AUDIO_TOKENS = 600;
/** A file part (a PDF, a CSV…), whose text is not known without reading it: about a page. */
const FILE_TOKENS = 1000;

// Enough of the start of an image to find a JPEG's size past its EXIF segment.
const HEADER_BYTES = 64 * 1024;

/**
 * OpenAI's published rule for an image at high detail: scaled to fit in 2048x2048, then its
 * shortest side scaled to 768 (both only ever down), 170 tokens per 512-pixel tile plus 85.
 */
export function imageTokens({ width, height }: ImageSize): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shortest = Math.min(1, 768 / Math.min(w, h));
  w *= shortest;
  h *= shortest;
  return 170 * Math.ceil(w / 512) * Math.ceil(h / 512) + 85;
}

function knownSize(part: MediaPart): ImageSize | undefined {
  if (part.ref !== undefined) {
    const { width, height } = part.ref;
    return width !== undefined && height !== undefined ? { width, height } : undefined;
  }
  try {
    const head =
      typeof part.data === 'string'
        ? decodeBase64(part.data, 'data', HEADER_BYTES)
        : partBytes(part)?.subarray(0, HEADER_BYTES);
    return head && imageSize(head);
  } catch {
    // Bytes that do not decode were refused where the message entered; a count never throws.
    return undefined;
  }
}

/**
 * The tokens a media part costs, by the rules a model provider publishes where there is one:
 * an image by OpenAI's high-detail tile rule when its size is known (a ref's width and height,
 * or the header of its inline PNG, GIF, JPEG or WebP bytes), else `UNKNOWN_IMAGE_TOKENS` (765,
 * a 1024x1024 image); an audio clip `AUDIO_TOKENS` (600) and a file `FILE_TOKENS` (1000), stated
 * estimates: their cost depends on a length or a text Skein does not read. An exact count for a
 * provider plugs in as a custom `TokenCounter`.
 */
export function mediaTokens(part: MediaPart): number {
  if (part.type === 'audio') return AUDIO_TOKENS;
  if (part.type === 'file') return FILE_TOKENS;
  const size = knownSize(part);
  return size ? imageTokens(size) : UNKNOWN_IMAGE_TOKENS;
}
