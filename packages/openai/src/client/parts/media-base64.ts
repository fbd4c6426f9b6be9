import { contentProblem, encodeBase64, type MediaPart } from '@skein/spec';
import { partError } from './part-error.js';
import type { PartSourceOptions } from './part-options.js';

/** A media part's bytes as the wire carries them, and the type they are. */
export interface InlineMedia {
  readonly base64: string;
  readonly mediaType: string;
}

/** Where a part sits, for the errors that name it. */
export interface PartPlace {
  readonly path: string;
  readonly index: number;
}

function isBytes(value: unknown): value is Uint8Array {
  return (
    ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]'
  );
}

/** `sha256:<hex>` of `bytes`, with Web Crypto (Node 20 and browsers alike). */
async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function isRemote(url: string): boolean {
  return !/^data:/i.test(url);
}

/** True when the part's bytes are behind an http(s) URL (the provider or a fetcher gets them). */
export function isRemotePart(part: MediaPart): boolean {
  return part.url !== undefined && isRemote(part.url);
}

async function fetched(part: MediaPart, url: string, place: PartPlace, options: PartSourceOptions) {
  if (options.fetcher === undefined)
    throw partError(
      place.path,
      place.index,
      part,
      'needs-bytes',
      `Chat Completions takes ${part.type === 'audio' ? 'audio' : 'a file'} only as bytes, not by URL, and no fetcher is set: pass the bytes (data), or give a fetcher`,
      'url',
    );
  const answer: unknown = await options.fetcher(url);
  const { bytes, mediaType } = (answer ?? {}) as { bytes?: unknown; mediaType?: unknown };
  if (!isBytes(bytes) || typeof mediaType !== 'string')
    throw partError(
      place.path,
      place.index,
      part,
      'fetcher',
      'the fetcher must answer { bytes: Uint8Array, mediaType: string }',
      'url',
    );
  // `audio/*` is allowed on a URL because the type is known only once fetched; an exact type the
  // app declared stays, as the app may know better than a server's content-type header.
  const sent = part.mediaType.endsWith('/*') ? mediaType : part.mediaType;
  checkArrived(part, { bytes, mediaType: sent }, place, 'fetcher');
  return { bytes, mediaType: sent };
}

/**
 * Bytes that arrived from outside get the checks inline bytes got where content entered: a
 * server's error page fetched for a PDF must not reach the model as one.
 */
function checkArrived(
  part: MediaPart,
  arrived: { bytes: Uint8Array; mediaType: string },
  place: PartPlace,
  kind: 'fetcher' | 'ref',
): void {
  const filename =
    part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {};
  const problem = contentProblem(
    [{ type: part.type, mediaType: arrived.mediaType, ...filename, data: arrived.bytes }],
    place.path,
    { maxAttachmentBytes: Number.POSITIVE_INFINITY },
  );
  if (problem !== undefined)
    throw partError(
      place.path,
      place.index,
      part,
      kind,
      `the bytes ${kind === 'ref' ? 'resolveRef' : 'the fetcher'} gave: ${problem.problem}`,
      part.ref === undefined ? 'url' : 'ref',
    );
}

async function resolved(part: MediaPart, place: PartPlace, options: PartSourceOptions) {
  const ref = part.ref!;
  if (options.resolveRef === undefined)
    throw partError(
      place.path,
      place.index,
      part,
      'ref',
      `the part is an attachment (${ref.digest}) and no resolveRef is set to read its bytes`,
      'ref',
    );
  const bytes: unknown = await options.resolveRef(ref);
  // A resolver that answers the wrong attachment would send one user's file in another's turn:
  // the digest says which bytes the message meant, so they are checked, not trusted.
  if (!isBytes(bytes) || bytes.length !== ref.size)
    throw partError(
      place.path,
      place.index,
      part,
      'ref',
      `resolveRef answered ${isBytes(bytes) ? `${bytes.length} bytes` : 'something other than a Uint8Array'} for ${ref.digest}, which holds ${ref.size}`,
      'ref',
    );
  const digest = await sha256Digest(bytes);
  if (digest !== ref.digest)
    throw partError(
      place.path,
      place.index,
      part,
      'ref',
      `resolveRef answered bytes whose digest is ${digest}, not ${ref.digest}`,
      'ref',
    );
  checkArrived(part, { bytes, mediaType: part.mediaType }, place, 'ref');
  return bytes;
}

/**
 * The part's bytes in base64 with the type to send them as, wherever they are: inline (bytes,
 * base64, a base64 data: URL), behind an http(s) URL (through `options.fetcher`), or in a store
 * (through `options.resolveRef`). Expects a part `checkContent` accepts.
 */
export async function inlineMedia(
  part: MediaPart,
  place: PartPlace,
  options: PartSourceOptions,
): Promise<InlineMedia> {
  if (part.ref !== undefined)
    return {
      base64: encodeBase64(await resolved(part, place, options)),
      mediaType: part.mediaType,
    };
  if (part.url !== undefined) {
    if (!isRemote(part.url))
      return { base64: part.url.slice(part.url.indexOf(',') + 1), mediaType: part.mediaType };
    const { bytes, mediaType } = await fetched(part, part.url, place, options);
    return { base64: encodeBase64(bytes), mediaType };
  }
  return {
    base64: isBytes(part.data) ? encodeBase64(part.data) : part.data,
    mediaType: part.mediaType,
  };
}
