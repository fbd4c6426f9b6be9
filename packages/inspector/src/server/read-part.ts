import type { MediaPart } from '@skein/spec';
import {
  CheckpointNotFoundError,
  InvalidArgumentError,
  isPartsContent,
  partBytes,
} from '@skein/spec';
import { partNotAvailable, partNotFound } from '../errors/part-errors.js';
import type { InspectorStore } from '../stores/inspector-store.js';

/** A media part found in a stored message, with its bytes. */
export interface ServedPart {
  readonly part: MediaPart;
  readonly position: number;
  readonly index: number;
  readonly bytes: Uint8Array;
}

// Decimal, no sign, no leading zero: `01`, `1e2`, `+1` and ` 1` are not indices (Number() would
// take them all), so each part has exactly one URL.
const INDEX = /^(0|[1-9][0-9]*)$/;

function index(name: string, text: string): number {
  if (!INDEX.test(text))
    throw new InvalidArgumentError(
      name,
      `${name} must be a non-negative integer without leading zeros, got ${JSON.stringify(text)}`,
    );
  return Number(text);
}

async function bytesOf(
  store: InspectorStore,
  threadId: string,
  part: MediaPart,
  where: { threadId: string; position: number; index: number },
): Promise<Uint8Array> {
  if (part.ref !== undefined) {
    if (store.readAttachment === undefined)
      throw partNotAvailable(where, 'the store cannot read attachments');
    const bytes = await store.readAttachment(threadId, part.ref.digest);
    if (bytes === undefined)
      throw partNotAvailable(
        where,
        `the store has no attachment ${part.ref.digest} for this thread`,
      );
    return bytes;
  }
  let bytes: Uint8Array | undefined;
  try {
    // Base64 `data` or a base64 `data:` URL, decoded strictly (`decodeBase64`).
    bytes = partBytes(part);
  } catch {
    throw partNotAvailable(where, 'its stored data is not valid base64');
  }
  if (bytes === undefined)
    throw partNotAvailable(where, 'it is an address the inspector does not fetch');
  return bytes;
}

/**
 * Media part `partText` of the message stored at `positionText` in thread `threadId`, with its
 * bytes: inline ones decoded, an attachment's read through `store.readAttachment` (which gives
 * only attachments this thread refers to). 400 for a malformed index, 404 for anything missing.
 */
export async function readPart(
  store: InspectorStore,
  threadId: string,
  positionText: string,
  partText: string,
): Promise<ServedPart> {
  const position = index('position', positionText);
  const partIndex = index('part', partText);
  const stored = await store.load(threadId);
  if (stored === undefined) throw new CheckpointNotFoundError(threadId);
  const content = stored.conversation.messages[position]?.content;
  const part = content !== undefined && isPartsContent(content) ? content[partIndex] : undefined;
  if (part === undefined || part.type === 'text') throw partNotFound(threadId, position, partIndex);
  const where = { threadId, position, index: partIndex };
  return { part, position, index: partIndex, bytes: await bytesOf(store, threadId, part, where) };
}
