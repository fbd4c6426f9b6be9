import type { MediaPart } from '@skein/spec';
import { mediaEssence } from './download-name.js';

// Types a browser only ever draws or plays: no scripts, no markup. SVG and HTML are documents
// that can run scripts when opened, so they are never among them, whatever the part says.
const INLINE_IMAGES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);
const AUDIO = /^audio\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/**
 * The media type to show a part inline with (an image part as a thumbnail, an audio part in a
 * player), or undefined when it is only ever downloaded: a file part, or a type not in the list.
 * The page and the part route both ask this, so what the page shows inline is what the route
 * answers inline.
 */
export function inlineMediaType(part: MediaPart): string | undefined {
  const essence = mediaEssence(part.mediaType);
  if (part.type === 'image' && INLINE_IMAGES.has(essence)) return essence;
  if (part.type === 'audio' && AUDIO.test(essence)) return essence;
  return undefined;
}
