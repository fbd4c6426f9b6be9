import type { SkeinEngine, ThreadContext } from '@skein/core';
import { withAttachmentBytes } from '@skein/core/nodes';

/**
 * A thread's stored messages with the attachments they refer to read back inline through
 * `engine` (the caller was found to own the thread before), for the sync readers of a stored chat.
 */
export function storedWithBytes(thread: ThreadContext, engine: SkeinEngine) {
  return withAttachmentBytes(thread.conversation.getAllMessages(), thread.threadId, (id, digest) =>
    engine.readAttachment(id, digest),
  );
}
