import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type ContentPart,
  checkContent,
  encodeBase64,
  InvalidArgumentError,
  partBytes,
} from '@skein/spec';
import { textualBytes } from '../report/part-block.js';
import type { ResourceBody } from './publications.js';

/**
 * What an app's resource read as, as `resources/read` answers: one entry per part, each under the
 * resource's URI. Text is `text` (of `mimeType`, the resource's declared type, else text/plain);
 * a media part held inline is `text` when textual and UTF-8, else a base64 `blob`. A part held
 * elsewhere (an http(s) URL, a stored digest) is refused: a resource is what the server holds.
 */
export function resourceContents(
  uri: string,
  mimeType: string | undefined,
  body: ResourceBody,
): ReadResourceResult['contents'] {
  const where = `resource ${uri}`;
  const parts = checkContent(Array.isArray(body) ? body : [body], where) as readonly ContentPart[];
  return parts.map((part, i) => {
    if (part.type === 'text') return { uri, mimeType: mimeType ?? 'text/plain', text: part.text };
    const bytes = partBytes(part, `${where}[${i}]`);
    if (bytes === undefined)
      throw new InvalidArgumentError(
        `${where}[${i}]`,
        `${where}[${i}]: a resource's ${part.type} part must hold its bytes (data), not a link`,
      );
    const text = textualBytes(part.mediaType, bytes);
    return text === undefined
      ? { uri, mimeType: part.mediaType, blob: encodeBase64(bytes) }
      : { uri, mimeType: part.mediaType, text };
  });
}
