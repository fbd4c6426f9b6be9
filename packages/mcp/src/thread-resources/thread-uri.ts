import { isThreadId } from '../threads/thread-id.js';

/** The server's own URIs: an app may publish nothing under it (`checkPublications`). */
export const THREAD_URI_PREFIX = 'skein://threads/';

export const THREAD_TEMPLATE = `${THREAD_URI_PREFIX}{threadId}`;
export const CHECKPOINTS_TEMPLATE = `${THREAD_URI_PREFIX}{threadId}/checkpoints`;
export const ATTACHMENT_TEMPLATE = `${THREAD_URI_PREFIX}{threadId}/attachments/{digest}`;

/** What a thread URI names. */
export type ThreadUri =
  | { readonly kind: 'thread' | 'checkpoints'; readonly threadId: string }
  | { readonly kind: 'attachment'; readonly threadId: string; readonly digest: string };

const SHAPE = /^skein:\/\/threads\/([^/?#]+)(?:\/(checkpoints)|\/attachments\/([^/?#]+))?$/;
// What a store names an attachment by (`AttachmentRef.digest`).
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** Whether `uri` is under the prefix, which scheme and authority spell in any case (RFC 3986). */
export function claimsThreadUri(uri: string): boolean {
  return uri.slice(0, THREAD_URI_PREFIX.length).toLowerCase() === THREAD_URI_PREFIX;
}

/** The URI an attachment of `threadId` is read at. */
export function attachmentUri(threadId: string, digest: string): string {
  return `${THREAD_URI_PREFIX}${threadId}/attachments/${digest}`;
}

// A template expanded by RFC 6570 sends the digest's colon as %3A.
function digestOf(segment: string): string | undefined {
  try {
    const digest = decodeURIComponent(segment);
    return DIGEST.test(digest) ? digest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a claimed URI names: a thread, its checkpoints or one of its attachments; undefined when it
 * is none of them, or names an id this server never hands out (only those are looked up).
 */
export function parseThreadUri(uri: string): ThreadUri | undefined {
  if (!claimsThreadUri(uri)) return undefined;
  const match = SHAPE.exec(THREAD_URI_PREFIX + uri.slice(THREAD_URI_PREFIX.length));
  const threadId = match?.[1];
  if (match === null || !isThreadId(threadId)) return undefined;
  if (match[3] === undefined) return { kind: match[2] ? 'checkpoints' : 'thread', threadId };
  const digest = digestOf(match[3]);
  return digest === undefined ? undefined : { kind: 'attachment', threadId, digest };
}
