import type { AttachmentRef, MediaPart } from '@skein/spec';
import { AiSdkPartError } from '../errors/ai-sdk-part-error.js';

// A Uint8Array from any realm (a worker's, a vm's), as @skein/spec tells bytes from base64.
function isBytes(value: unknown): value is Uint8Array {
  return (
    ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]'
  );
}

/** Gives the bytes of an attachment a store holds (a store's attachment reader, later). */
type ResolveRef = (ref: AttachmentRef) => Promise<Uint8Array>;

export interface ResolveRefOptions {
  readonly resolveRef?: ResolveRef;
}

/**
 * The bytes behind `part.ref`. Errors of the resolver itself (a store that is down) pass through
 * as they are: the caller's retry rules know them; only a missing resolver or bytes that are not
 * the ref's are this package's to report.
 */
export async function refBytes(
  part: MediaPart & { readonly ref: AttachmentRef },
  at: string,
  options: ResolveRefOptions,
): Promise<Uint8Array> {
  const facts = { part: at, partType: part.type };
  if (options.resolveRef === undefined)
    throw new AiSdkPartError(
      'REF_UNRESOLVED',
      `${at} (${part.type} part) holds attachment ${part.ref.digest}, and no resolveRef was given to read its bytes`,
      facts,
    );
  const bytes: unknown = await options.resolveRef(part.ref);
  if (!isBytes(bytes) || bytes.length !== part.ref.size)
    throw new AiSdkPartError(
      'REF_UNRESOLVED',
      `${at} (${part.type} part): resolveRef gave ${isBytes(bytes) ? `${bytes.length} bytes` : 'no Uint8Array'} for attachment ${part.ref.digest} of ${part.ref.size} bytes`,
      facts,
    );
  return bytes;
}
