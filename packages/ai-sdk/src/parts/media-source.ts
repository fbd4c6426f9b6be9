import { type MediaPart, partBytes } from '@skein/spec';
import { type ResolveRefOptions, refBytes } from './resolve-ref.js';

/** Where a media part's bytes are, as the AI SDK can take them. */
export type ResolvedSource =
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'url'; readonly url: URL };

/**
 * A part's bytes in hand (inline data, a base64 `data:` URL decoded, a ref resolved), or its
 * http(s) URL, which Skein never fetches: the provider does, or refuses.
 */
export async function resolveSource(
  part: MediaPart,
  at: string,
  options: ResolveRefOptions,
): Promise<ResolvedSource> {
  if (part.ref !== undefined) return { kind: 'bytes', bytes: await refBytes(part, at, options) };
  const bytes = partBytes(part, at);
  if (bytes !== undefined) return { kind: 'bytes', bytes };
  // partBytes leaves out only refs (above) and http(s) urls.
  return { kind: 'url', url: new URL(part.url as string) };
}
