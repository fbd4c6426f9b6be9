import { encodeBase64 } from '@skein/spec';

/** What a part on either wire comes down to for a call id: its text, or its media's family and source. */
type PartKey = { readonly text: string } | { readonly family: string; readonly source: string };

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** The base64 of a `data:` URL, or the URL itself: the same bytes read the same on both wires. */
function urlSource(url: unknown): string {
  const text = typeof url === 'string' ? url : '';
  const comma = text.indexOf(',');
  return text.startsWith('data:') && comma !== -1 ? text.slice(comma + 1) : text;
}

/** A Skein part (`image`, `audio`, `file`, by `data`, `url` or `ref`). */
function skeinMediaSource(part: Record<string, unknown>): string {
  const { data, url, ref } = part;
  if (data instanceof Uint8Array) return encodeBase64(data);
  if (typeof data === 'string') return data;
  if (url !== undefined) return urlSource(url);
  return String(record(ref).digest ?? '');
}

/**
 * A part as ScriptedLLMClient sees it (Skein's parts) or as the testkit's server sees it (Chat
 * Completions parts), brought to one form, so the same conversation gives the same ids on both.
 */
function partKey(value: unknown): PartKey {
  const part = record(value);
  switch (part.type) {
    case 'text':
      return { text: typeof part.text === 'string' ? part.text : '' };
    case 'image_url':
      return { family: 'image', source: urlSource(record(part.image_url).url) };
    case 'input_audio':
      return { family: 'audio', source: String(record(part.input_audio).data ?? '') };
    case 'file': {
      const file = record(part.file);
      if (Object.keys(file).length !== 0)
        return { family: 'file', source: urlSource(file.file_data ?? file.file_id) };
      return { family: 'file', source: skeinMediaSource(part) };
    }
    default:
      return { family: String(part.type ?? ''), source: skeinMediaSource(part) };
  }
}

/**
 * The text a message's content adds to a call id. A string adds itself, as it always has, so
 * string-only conversations keep their ids; text parts add their text (what the model reads is
 * the same as a string's), and media parts their family and bytes (as base64) or URL, marked by
 * control characters a text does not hold, so two requests differing only in an image differ.
 * Anything else (a malformed entry) adds nothing.
 */
export function callIdContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    const key = partKey(part);
    text += 'text' in key ? key.text : `\u0002${key.family}\u0003${key.source}\u0002`;
  }
  return text;
}
