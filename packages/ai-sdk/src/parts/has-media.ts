import type { ContentPart } from '@skein/spec';

/** True when parts hold an image, audio clip or file, not only text. */
export function hasMedia(parts: readonly ContentPart[]): boolean {
  return parts.some((part) => part.type !== 'text');
}
