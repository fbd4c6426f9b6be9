import type { Part } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { ContentPart, MessageContent } from '@skein/spec';

/** The kind of Skein media part a media type makes: images and audio are the model's to see. */
function mediaKind(mediaType: string): 'image' | 'audio' | 'file' {
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType.startsWith('audio/')) return 'audio';
  return 'file';
}

function mediaPart(part: Part, source: { data: Uint8Array } | { url: string }): ContentPart {
  const mediaType = part.mediaType || 'application/octet-stream';
  const kind = mediaKind(mediaType);
  if (kind === 'file')
    return {
      type: 'file',
      mediaType,
      ...(part.filename ? { filename: part.filename } : {}),
      ...source,
    } as ContentPart;
  return { type: kind, mediaType, ...source } as ContentPart;
}

/**
 * An A2A message's parts as a Skein message's content: text as text, files (bytes or a URL) as
 * image, audio or file parts by their media type, and structured `data` as its JSON text (what a
 * model reads). A part with nothing in it is refused, naming it.
 */
export function contentOfParts(parts: readonly Part[], where: string): MessageContent {
  if (parts.length === 0)
    throw new RequestMalformedError(`${where} has no parts: a message carries at least one`);
  const content = parts.map((part, i): ContentPart => {
    const value = part.content;
    switch (value?.$case) {
      case 'text':
        return { type: 'text', text: value.value };
      case 'data':
        return { type: 'text', text: JSON.stringify(value.value ?? null) };
      case 'raw':
        return mediaPart(part, { data: new Uint8Array(value.value) });
      case 'url':
        return mediaPart(part, { url: value.value });
      default:
        throw new RequestMalformedError(
          `${where}[${i}] is empty: a part holds text, raw bytes, a url or data`,
        );
    }
  });
  // A message of text alone stays a plain string, as a chat sends it.
  return content.every((p) => p.type === 'text')
    ? content.map((p) => (p as { text: string }).text).join('\n')
    : content;
}

/** The structured value of a message that is one `data` part (an answer to a form), if it is. */
export function dataOfParts(parts: readonly Part[]): { value: unknown } | undefined {
  const [only] = parts;
  return parts.length === 1 && only?.content?.$case === 'data'
    ? { value: only.content.value ?? null }
    : undefined;
}

const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

/** A data part: a structured value the other side reads as JSON. */
export function dataPart(value: unknown): Part {
  return {
    content: { $case: 'data', value },
    metadata: undefined,
    filename: '',
    mediaType: 'application/json',
  };
}

/**
 * A Skein message's content as A2A parts. Media the store keeps as attachments (`ref`) are read
 * with `readAttachment`; one it no longer has is named in a text part rather than dropped.
 */
export async function partsOfContent(
  content: MessageContent,
  readAttachment: (digest: string) => Promise<Uint8Array | undefined>,
): Promise<Part[]> {
  if (typeof content === 'string') return content === '' ? [] : [textPart(content)];
  const parts: Part[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      parts.push(textPart(part.text));
      continue;
    }
    const common = {
      metadata: undefined,
      filename: part.type === 'file' ? (part.filename ?? '') : '',
      mediaType: part.mediaType,
    };
    if (part.url !== undefined)
      parts.push({ ...common, content: { $case: 'url', value: part.url } });
    else if (part.data !== undefined)
      parts.push({
        ...common,
        content: {
          $case: 'raw',
          value:
            typeof part.data === 'string'
              ? Buffer.from(part.data, 'base64')
              : Buffer.from(part.data),
        },
      });
    else {
      const bytes = await readAttachment(part.ref.digest);
      parts.push(
        bytes
          ? { ...common, content: { $case: 'raw', value: Buffer.from(bytes) } }
          : textPart(`[${part.mediaType} attachment ${part.ref.digest} is no longer stored]`),
      );
    }
  }
  return parts;
}
