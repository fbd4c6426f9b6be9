import { encodeBase64, type MediaPart, type MessageContent } from '@skein/spec';
import { AiSdkPartError } from '../errors/ai-sdk-part-error.js';
import type { UIFileChunk, UIFilePart, UITextPart } from './ai-sdk-shapes.js';
import { resolveSource } from './media-source.js';
import type { ResolveRefOptions } from './resolve-ref.js';

/**
 * A media part as a UI `file` part when that needs no store: base64 and bytes as a data: URL, a
 * url (http(s), or a data: URL `checkContent` passed) as it is. Undefined for a `ref`, whose
 * bytes only a resolver has. Synchronous, so a stream writer keeps its chunks in order.
 */
export function inlineUIFilePart(part: MediaPart): UIFilePart | undefined {
  // Base64 and urls go as they are (an address rewritten by URL parsing would no longer match
  // the stored one).
  const url =
    typeof part.data === 'string'
      ? `data:${part.mediaType};base64,${part.data}`
      : part.data !== undefined
        ? `data:${part.mediaType};base64,${encodeBase64(part.data)}`
        : part.url;
  if (url === undefined) return undefined;
  return {
    type: 'file',
    mediaType: part.mediaType,
    url,
    ...(part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}),
  };
}

/**
 * A media part as a UI `file` part: its bytes as a base64 data: URL (inline data as it is, a ref
 * resolved), an http(s) url as it is, for the browser to load. `at` names the part in errors.
 */
async function toUIFilePart(
  part: MediaPart,
  at: string,
  options: ResolveRefOptions = {},
): Promise<UIFilePart> {
  const inline = part.ref === undefined ? inlineUIFilePart(part) : undefined;
  if (inline !== undefined) return inline;
  return {
    type: 'file',
    mediaType: part.mediaType,
    url: await dataUrlOf(part, at, options),
    ...(part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}),
  };
}

async function dataUrlOf(part: MediaPart, at: string, options: ResolveRefOptions) {
  const source = await resolveSource(part, at, options);
  return source.kind === 'url'
    ? source.url.href
    : `data:${part.mediaType};base64,${encodeBase64(source.bytes)}`;
}

/**
 * Content as a UI message's parts, in order: text parts and file parts (see `toUIFilePart`).
 * For a stored chat read back; `fromUIMessageParts` takes them back to the same content.
 */
export async function toUIMessageParts(
  content: MessageContent,
  at: string,
  options: ResolveRefOptions = {},
): Promise<(UITextPart | UIFilePart)[]> {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Promise.all(
    content.map((part, index) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : toUIFilePart(part, `${at}[${index}]`, options),
    ),
  );
}

/** Content's media parts alone as UI file parts (what `useChat` shows as attachments). */
export async function toUIFileParts(
  content: MessageContent,
  at: string,
  options: ResolveRefOptions = {},
): Promise<UIFilePart[]> {
  const parts = await toUIMessageParts(content, at, options);
  return parts.filter((part): part is UIFilePart => part.type === 'file');
}

/**
 * The UI message stream chunk for a file a model or tool produced while a message streams. The
 * chunk has no filename (the `ai` package's `file` chunk is `{ type, url, mediaType }`).
 */
export async function toUIFileChunk(
  part: MediaPart,
  at: string,
  options: ResolveRefOptions = {},
): Promise<UIFileChunk> {
  const { url, mediaType } = await toUIFilePart(part, at, options);
  return { type: 'file', url, mediaType };
}

/**
 * `toUIMessageParts` without a resolver, synchronously: what the stores hold today (inline data
 * and urls) reads back in order; a `ref` is `REF_UNRESOLVED`, as it is without `resolveRef`.
 */
export function inlineUIMessageParts(
  content: MessageContent,
  at: string,
): (UITextPart | UIFilePart)[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.map((part, index) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    const inline = inlineUIFilePart(part);
    if (inline !== undefined) return inline;
    const where = `${at}[${index}]`;
    throw new AiSdkPartError(
      'REF_UNRESOLVED',
      `${where} (${part.type} part) holds attachment ${part.ref?.digest}, which this chat cannot read back yet`,
      { part: where, partType: part.type },
    );
  });
}
