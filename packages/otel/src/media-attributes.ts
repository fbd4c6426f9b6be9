import type { Attributes } from '@opentelemetry/api';
import { isMediaPart, type LLMMessage, type MediaPart } from '@skein/spec';
import { mediaSize } from './media-part.js';

/** Which messages: a model call's request (`skein.llm.input.*`) or its answer (`.output.*`). */
export type MediaDirection = 'input' | 'output';

/** What `media.sizes` holds for a part whose length is unknown (an http(s) URL). */
const UNKNOWN_SIZE = -1;

function mediaParts(messages: readonly LLMMessage[]): MediaPart[] {
  const found: MediaPart[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) if (isMediaPart(part)) found.push(part);
  }
  return found;
}

/**
 * The media parts of `messages` described by type and size, never by content: how many of each
 * type, their types, media types and sizes in message order (parallel arrays, a size of -1 when
 * unknown), and the total of the known sizes. Not content (no text, no bytes, no URL), so
 * recorded without `captureContent`: it is what tells why a call was slow or costly. None when
 * the messages hold no media, so text-only spans keep the attributes they had.
 */
export function mediaAttributes(
  messages: readonly LLMMessage[],
  direction: MediaDirection,
): Attributes {
  const parts = mediaParts(messages);
  if (parts.length === 0) return {};
  const prefix = `skein.llm.${direction}.media`;
  const counts = new Map<string, number>();
  const sizes: number[] = [];
  let bytes = 0;
  for (const part of parts) {
    counts.set(part.type, (counts.get(part.type) ?? 0) + 1);
    const size = mediaSize(part);
    sizes.push(size ?? UNKNOWN_SIZE);
    bytes += size ?? 0;
  }
  const attributes: Attributes = {
    [`${prefix}.count`]: parts.length,
    [`${prefix}.types`]: parts.map((p) => p.type),
    [`${prefix}.mime_types`]: parts.map((p) => p.mediaType),
    [`${prefix}.sizes`]: sizes,
    [`${prefix}.bytes`]: bytes,
  };
  for (const [type, count] of counts) attributes[`${prefix}.${type}.count`] = count;
  return attributes;
}
