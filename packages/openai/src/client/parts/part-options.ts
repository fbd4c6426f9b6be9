import type { AttachmentRef } from '@skein/spec';

/**
 * Gets the bytes behind an http(s) URL. Skein never fetches a URL on its own (decision 0031):
 * the app decides which addresses its server may reach, so a fetcher is the app's to give.
 */
export type MediaFetcher = (url: string) => Promise<{ bytes: Uint8Array; mediaType: string }>;

/** Gets the bytes of an attachment a store holds, by its ref. */
export type RefResolver = (ref: AttachmentRef) => Promise<Uint8Array>;

/** Where the bytes come from when a part does not hold them and the wire needs them inline. */
export interface PartSourceOptions {
  /** For audio and files given by http(s) URL: Chat Completions takes only their bytes. */
  readonly fetcher?: MediaFetcher;
  /** For parts given by `ref`. */
  readonly resolveRef?: RefResolver;
}
