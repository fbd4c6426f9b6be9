import {
  type ContentPart,
  contentProblem,
  decodeBase64,
  type MediaPart,
  sniffMediaType,
} from '@skein/spec';

/** An Agents SDK `ToolOutputImage` or `ToolOutputFileContent`, as far as Skein reads it. */
type AgentsMediaOutput =
  | { readonly type: 'image'; readonly image?: unknown }
  | { readonly type: 'file'; readonly file?: unknown };

type Source = { data: Uint8Array | string } | { url: string };

function field<T>(value: unknown, name: string, is: (v: unknown) => v is T): T | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const found = (value as Record<string, unknown>)[name];
  return is(found) ? found : undefined;
}
const isString = (v: unknown): v is string => typeof v === 'string';
// `instanceof` holds for a Node Buffer too, which is a Uint8Array.
const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;

// What a bare string or `{ data }` holds: a URL or data: URL as a `url`, anything else as data.
function source(value: unknown): Source | undefined {
  if (typeof value === 'string')
    return /^(https?|data):/i.test(value) ? { url: value } : { data: value };
  const data = field(value, 'data', (v): v is Uint8Array | string => isString(v) || isBytes(v));
  if (data !== undefined) return { data };
  const url = field(value, 'url', isString);
  return url === undefined ? undefined : { url };
}

// The SDK leaves an image's media type optional; a data: URL or the bytes' signature tell it.
function mediaTypeOf(value: unknown, from: Source, fallback: string): string {
  const declared = field(value, 'mediaType', isString);
  if (declared) return declared;
  if ('url' in from) {
    const match = /^data:([^;,]+)/i.exec(from.url);
    return match?.[1] ?? fallback;
  }
  try {
    const bytes = isBytes(from.data) ? from.data : decodeBase64(from.data);
    return sniffMediaType(bytes) ?? fallback;
  } catch {
    return fallback;
  }
}

function describe(output: AgentsMediaOutput): string {
  const inner = output.type === 'image' ? output.image : output.file;
  const id = field(inner, 'fileId', isString) ?? field(inner, 'id', isString);
  return id === undefined ? `[${output.type}]` : `[${output.type} ${id}]`;
}

/**
 * An Agents SDK image or file output as a Skein part: `ToolOutputImage` as an image part,
 * `ToolOutputFileContent` as a file part (its `filename` kept), from inline data (bytes, base64,
 * a data: URL) or an http(s) URL the provider fetches (Skein never does). An OpenAI file id, or a
 * part `checkContent` would refuse, becomes a text note: the engine would fail the whole result
 * for one bad part.
 */
export function agentsMediaPart(output: AgentsMediaOutput): ContentPart {
  const inner = output.type === 'image' ? output.image : output.file;
  const from = source(inner);
  if (from === undefined) return { type: 'text', text: describe(output) };
  const filename = output.type === 'file' ? field(inner, 'filename', isString) : undefined;
  const part = {
    type: output.type,
    mediaType: mediaTypeOf(
      inner,
      from,
      output.type === 'image' ? 'image/*' : 'application/octet-stream',
    ),
    ...(filename === undefined ? {} : { filename }),
    ...from,
  } as MediaPart;
  const problem = contentProblem([part], 'output', {
    maxAttachmentBytes: Number.POSITIVE_INFINITY,
  });
  return problem === undefined
    ? part
    : { type: 'text', text: `${describe(output)} (not kept: ${problem.problem})` };
}
