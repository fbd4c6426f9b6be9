import { type ContentPart, encodeBase64 } from '@skein/spec';
import fc from 'fast-check';
import { PNG } from './test-parts.js';

export const bytes = fc.uint8Array({ maxLength: 64 });

/** Parts `checkContent` accepts and the Chat Completions wire can carry without a fetcher. */
export const validPart: fc.Arbitrary<ContentPart> = fc.oneof(
  fc.string().map((text) => ({ type: 'text' as const, text })),
  bytes.map((b) => ({
    type: 'image' as const,
    mediaType: 'image/png',
    data: Uint8Array.from([...PNG, ...b]),
  })),
  bytes.map((b) => ({
    type: 'image' as const,
    mediaType: 'image/png',
    url: `data:image/png;base64,${encodeBase64(Uint8Array.from([...PNG, ...b]))}`,
  })),
  fc
    .webUrl({ validSchemes: ['https'] })
    .map((url) => ({ type: 'image' as const, mediaType: 'image/*', url })),
  bytes.map((b) => ({ type: 'audio' as const, mediaType: 'audio/wav', data: encodeBase64(b) })),
  bytes.map((b) => ({ type: 'file' as const, mediaType: 'application/octet-stream', data: b })),
);
