import { downloadName, mediaEssence } from '../model/download-name.js';
import { inlineMediaType } from '../model/inline-media.js';
import { contentDisposition } from './content-disposition.js';
import type { ServedPart } from './read-part.js';

// A type/subtype a header can carry as is; anything else (a stored type holding spaces, quotes,
// markup) is sent as plain bytes.
const ESSENCE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/**
 * The headers of a part's bytes. Shown inline only for the types of `inlineMediaType` (PNG,
 * JPEG, GIF, WebP images, audio); everything else, SVG and HTML included, is an attachment, so
 * opening its URL downloads it rather than rendering it in the inspector's origin. The security
 * headers (`nosniff` among them) come from the middleware.
 */
export function partHeaders(served: ServedPart): Record<string, string> {
  const { part, position, index } = served;
  const name = downloadName(part, position, index);
  const inline = inlineMediaType(part);
  const essence = mediaEssence(part.mediaType);
  return {
    'content-type': inline ?? (ESSENCE.test(essence) ? essence : 'application/octet-stream'),
    'content-disposition': contentDisposition(inline === undefined ? 'attachment' : 'inline', name),
    // A conversation's bytes: not for shared caches, and not kept once the page is closed.
    'cache-control': 'private, no-store',
  };
}
