import { attachmentDigest } from '@skein/core/store-kit';
import type { CheckpointStore, LLMMessage } from '@skein/spec';
import { RunnerError } from '../errors/runner-error.js';

/**
 * The bytes of every attachment a user message's image refers to (`ref`), by digest, read
 * through the store as thread `threadId` (a store gives a thread only its own attachments). Only
 * user images: the fine-tuning format takes no other media, and those are refused by the
 * export, not read. The bytes are checked against the ref: a store answering another
 * attachment's bytes would put one user's image in another's training line.
 */
export async function readUserImages(
  messages: readonly LLMMessage[],
  threadId: string,
  store: CheckpointStore | undefined,
): Promise<Map<string, Uint8Array>> {
  const read = new Map<string, Uint8Array>();
  for (const [messageIndex, message] of messages.entries()) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const [partIndex, part] of message.content.entries()) {
      if (part.type !== 'image' || part.ref === undefined || read.has(part.ref.digest)) continue;
      const { digest, size } = part.ref;
      const fail = (problem: string, cause?: unknown) =>
        RunnerError.exportPart(
          threadId,
          messageIndex,
          partIndex,
          `the image is an attachment (${digest}) ${problem}`,
          cause,
        );
      if (store?.readAttachment === undefined)
        throw fail(
          store === undefined
            ? 'and the run has no store to read it from'
            : 'and the store cannot read attachments (it has no readAttachment)',
        );
      let bytes: Uint8Array | undefined;
      try {
        bytes = await store.readAttachment(threadId, digest);
      } catch (error) {
        throw fail(
          `the store could not read: ${error instanceof Error ? error.message : String(error)}`,
          error,
        );
      }
      if (bytes === undefined) throw fail('the store does not hold for this thread');
      if (bytes.length !== size || attachmentDigest(bytes) !== digest)
        throw fail(`the store answered other bytes (${bytes.length} bytes, not ${size})`);
      read.set(digest, bytes);
    }
  }
  return read;
}
