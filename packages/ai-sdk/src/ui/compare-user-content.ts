import { type ContentPart, type MessageContent, partBytes } from '@skein/spec';
import { fromUIMessageParts } from '../parts/from-ui-message-parts.js';
import type { ClientMessage } from './chat-request.js';

/** A piece of content as the comparison sees it: text runs merged, media by what it holds. */
type Piece =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'media';
      readonly mediaType: string;
      readonly filename?: string;
      readonly bytes?: Uint8Array;
      readonly url?: string;
      readonly digest?: string;
    };

// Text split differently (one part or three, a string or parts) is the same text: the client
// and the store need not agree on where parts break, as the text comparison before parts never did.
function piecesOf(content: MessageContent): Piece[] {
  const parts: readonly ContentPart[] =
    typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const pieces: Piece[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      const last = pieces.at(-1);
      if (part.text === '') continue;
      if (last?.kind === 'text')
        pieces[pieces.length - 1] = { kind: 'text', text: last.text + part.text };
      else pieces.push({ kind: 'text', text: part.text });
      continue;
    }
    const bytes = partBytes(part);
    pieces.push({
      kind: 'media',
      mediaType: part.mediaType.split(';')[0]!.trim().toLowerCase(),
      ...(part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}),
      ...(bytes !== undefined
        ? { bytes }
        : part.ref !== undefined
          ? { digest: part.ref.digest }
          : { url: part.url }),
    });
  }
  return pieces;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

async function sameMedia(
  client: Piece & { kind: 'media' },
  stored: Piece & { kind: 'media' },
): Promise<boolean> {
  if (client.mediaType !== stored.mediaType) return false;
  // The client cannot say image or file (UI parts are all files) and drops an image's filename,
  // so a filename counts only where both sides keep one.
  if (client.filename !== undefined && stored.filename !== undefined)
    if (client.filename !== stored.filename) return false;
  if (client.url !== undefined || stored.url !== undefined) return client.url === stored.url;
  if (client.bytes && stored.bytes) return sameBytes(client.bytes, stored.bytes);
  // A stored attachment is known by digest only: the client's bytes are hashed, never the
  // store asked for its bytes.
  if (client.bytes && stored.digest) return (await sha256(client.bytes)) === stored.digest;
  return client.digest !== undefined && client.digest === stored.digest;
}

function describe(piece: Piece | undefined): string {
  if (piece === undefined) return 'nothing';
  return piece.kind === 'text' ? 'text' : `an attachment of type ${piece.mediaType}`;
}

/**
 * How a client's user message differs from the stored user content, or undefined when it holds
 * the same: the same text (however it is split into parts) and the same attachments in the same
 * places (same media type, same bytes or url; inline bytes match a stored ref by SHA-256). `at`
 * names the client message (`messages[3]`); a client part that is not valid content throws the
 * `InvalidArgumentError` of `fromUIMessageParts`, naming it.
 */
export async function compareUserContent(
  client: ClientMessage,
  stored: MessageContent,
  at: string,
): Promise<string | undefined> {
  const mine = piecesOf(fromUIMessageParts(client.parts, `${at}.parts`));
  const kept = piecesOf(stored);
  for (let i = 0; i < Math.max(mine.length, kept.length); i++) {
    const a = mine[i];
    const b = kept[i];
    const same =
      a !== undefined &&
      b !== undefined &&
      (a.kind === 'text'
        ? b.kind === 'text' && a.text === b.text
        : b.kind === 'media' && (await sameMedia(a, b)));
    if (!same)
      return `${at} differs from the stored user message: piece ${i + 1} is ${describe(a)} where the stored message has ${describe(b)}${a?.kind === 'text' && b?.kind === 'text' ? ' that differs' : ''}`;
  }
  return undefined;
}
