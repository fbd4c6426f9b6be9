import { ConversationError } from '@skein/conversation';
import type { ContentPart } from '@skein/spec';

type Record_ = Record<string, unknown>;

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record_)[key]
    : undefined;
}

/** An image part from an `image_url` URL: a base64 data: URL back to inline base64 data. */
function imagePart(url: string, path: string): ContentPart {
  if (!/^data:/i.test(url)) return { type: 'image', mediaType: 'image/*', url };
  const match = /^data:([^;,]+);base64,(.*)$/is.exec(url);
  if (!match)
    throw ConversationError.invalidTranscript(path, 'must be data:<media type>;base64,<data>');
  return { type: 'image', mediaType: match[1]!, data: match[2]! };
}

/**
 * A user message's parts as `exportTranscript` with `media: 'user-images'` wrote them: `text`
 * parts and `image_url` parts. An image comes back as inline base64 (`data`) when it was written
 * as a data: URL, whatever it was before (bytes, a data: URL, an attachment by ref), and by URL
 * (type `image/*`, the one a URL may have unknown) when it was an http(s) URL.
 */
export function restoreUserParts(raw: readonly unknown[], path: string): ContentPart[] {
  // The export writes no parts as '' (the API refuses an empty array), so none came from it.
  if (raw.length === 0)
    throw ConversationError.invalidTranscript(
      path,
      'must be a string or a non-empty array of text and image_url parts',
    );
  return raw.map((part, i): ContentPart => {
    const at = `${path}[${i}]`;
    const type = field(part, 'type');
    if (type === 'text') {
      const text = field(part, 'text');
      if (typeof text !== 'string')
        throw ConversationError.invalidTranscript(`${at}.text`, 'must be a string');
      return { type: 'text', text };
    }
    if (type === 'image_url') {
      const url = field(field(part, 'image_url'), 'url');
      if (typeof url !== 'string')
        throw ConversationError.invalidTranscript(`${at}.image_url.url`, 'must be a string');
      return imagePart(url, `${at}.image_url.url`);
    }
    throw ConversationError.invalidTranscript(
      `${at}.type`,
      'must be "text" or "image_url" (a transcript carries user images only)',
    );
  });
}
