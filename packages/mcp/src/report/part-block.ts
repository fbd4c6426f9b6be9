import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import {
  type ContentPart,
  encodeBase64,
  type FilePart,
  type MediaPart,
  partBytes,
} from '@skein/spec';

// A scheme followed by a colon: a file name that is already a URI is used as the resource's URI.
const URI = /^[a-z][a-z0-9+.-]*:/i;
// Media types whose bytes MCP clients expect as a resource's `text` rather than its `blob`.
const TEXTUAL = /^(text\/|application\/(json|xml|yaml|javascript)\b|[^;]*\+(json|xml)\b)/i;

function lastSegment(url: string): string {
  const path = new URL(url).pathname;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || url;
}

/**
 * A file part's resource URI: its `filename` when that is already a URI (`test://report`,
 * `file:///tmp/a.csv`), else `<home>/files/<n>/<filename>` (`home` names where the part came from,
 * `skein://threads/<threadId>` for a thread's output), so two files of one output never share a
 * URI and a client can tell where a resource came from.
 */
function resourceUri(part: FilePart, home: string, index: number): string {
  if (part.filename !== undefined && URI.test(part.filename)) return part.filename;
  const name = encodeURIComponent(part.filename ?? `part-${index}`);
  return `${home}/files/${index}/${name}`;
}

/** Bytes as the `text` MCP clients expect of a textual media type, or undefined for a `blob`. */
export function textualBytes(mediaType: string, bytes: Uint8Array): string | undefined {
  if (!TEXTUAL.test(mediaType)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function fileBlock(part: FilePart, bytes: Uint8Array, uri: string): ContentBlock {
  const text = textualBytes(part.mediaType, bytes);
  return {
    type: 'resource',
    resource:
      text === undefined
        ? { uri, mimeType: part.mediaType, blob: encodeBase64(bytes) }
        : { uri, mimeType: part.mediaType, text },
  };
}

// A part whose bytes Skein does not hold: a link to its URL, or a note naming its stored digest.
function elsewhere(part: MediaPart, index: number): ContentBlock {
  if (part.url !== undefined)
    return {
      type: 'resource_link',
      uri: part.url,
      name: part.type === 'file' && part.filename ? part.filename : lastSegment(part.url),
      mimeType: part.mediaType,
    };
  return { type: 'text', text: `[${part.type} ${part.mediaType} ${part.ref?.digest ?? index}]` };
}

/**
 * One content part (of a workflow's output, of a prompt's message) as an MCP content block: text
 * as text, an image or audio clip held inline as an image or audio block, a file held inline as an
 * embedded resource (`text` for textual types that decode as UTF-8, `blob` otherwise), and a part
 * by http(s) URL as a resource link (Skein never fetches it). `home` is the URI a file without
 * one of its own is named under. Assumes a part `checkContent` accepted.
 */
export function partBlock(
  part: ContentPart,
  home: string,
  index: number,
  where = `output.content[${index}]`,
): ContentBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const bytes = partBytes(part, where);
  if (bytes === undefined) return elsewhere(part, index);
  if (part.type === 'file') return fileBlock(part, bytes, resourceUri(part, home, index));
  // Checked base64 is already what MCP carries; only bytes need encoding.
  const data = typeof part.data === 'string' ? part.data : encodeBase64(bytes);
  return { type: part.type, data, mimeType: part.mediaType };
}
