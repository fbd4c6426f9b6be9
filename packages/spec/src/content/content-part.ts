/**
 * A message's content: its text (a plain string, as it has always been), or a list of parts.
 * Names follow the AI SDK's prompt parts (`type`, `text`, `mediaType`, `filename`, `data`), so
 * an AI SDK user reads them without a table; `url` and `ref` are the other two places a media
 * part's bytes can be. See `docs/decisions/0031-message-parts.md`.
 */
export type MessageContent = string | readonly ContentPart[];

export type ContentPart = TextPart | MediaPart;

/** A part that carries bytes: an image, an audio clip or any file. */
export type MediaPart = ImagePart | AudioPart | FilePart;

export type ContentPartType = ContentPart['type'];

/** The part types a content may hold, in the order the README lists them. */
export const CONTENT_PART_TYPES: readonly ContentPartType[] = ['text', 'image', 'audio', 'file'];

export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/**
 * Where a media part's bytes are: exactly one of
 * - `data`: inline, as bytes (`Uint8Array`, a Node `Buffer` too) or as standard base64 text (what
 *   JSON carries; strict: the RFC 4648 alphabet, `=` padding, no whitespace);
 * - `url`: an `http:` or `https:` address the provider may fetch (Skein never fetches one itself
 *   unless the app gives it a fetcher), or a base64 `data:` URL, which counts as inline data;
 * - `ref`: an attachment a store holds, by content digest (see `AttachmentRef`).
 */
export type MediaSource =
  | { readonly data: Uint8Array | string; readonly url?: never; readonly ref?: never }
  | { readonly url: string; readonly data?: never; readonly ref?: never }
  | { readonly ref: AttachmentRef; readonly data?: never; readonly url?: never };

/**
 * An image. `mediaType` is an `image/…` type (`image/png`, `image/jpeg`, `image/gif`,
 * `image/webp` are checked against the bytes); `image/*` is allowed for a `url` only, where the
 * type is known once it is fetched.
 */
export type ImagePart = { readonly type: 'image'; readonly mediaType: string } & MediaSource;

/** An audio clip. `mediaType` is an `audio/…` type (`audio/wav`, `audio/mpeg`, …). */
export type AudioPart = { readonly type: 'audio'; readonly mediaType: string } & MediaSource;

/**
 * Any file: a PDF (`application/pdf`, checked against its bytes), a CSV, a spreadsheet, … with
 * an optional `filename` (what a front end shows and a download is named).
 */
export type FilePart = {
  readonly type: 'file';
  readonly mediaType: string;
  readonly filename?: string;
} & MediaSource;

/**
 * An attachment a store holds once, by the SHA-256 digest of its bytes, in place of inline
 * `data`. A store that keeps attachments writes one when it saves a message (decision 0033), and
 * gives the bytes back only when a model call or a reader asks (`CheckpointStore.readAttachment`).
 */
export interface AttachmentRef {
  /** `sha256:` followed by the 64 lowercase hex digits of the bytes' SHA-256. */
  readonly digest: string;
  /** The attachment's length in bytes. */
  readonly size: number;
  /** An image's width and height in pixels, where known: what a token count needs. */
  readonly width?: number;
  readonly height?: number;
}
