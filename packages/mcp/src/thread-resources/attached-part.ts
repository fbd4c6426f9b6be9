import type { ThreadContext } from '@skein/core';
import type { MediaPart } from '@skein/spec';

/**
 * The media part of a message of `thread` stored as attachment `digest` (what type its bytes
 * are), or undefined when no message of the thread refers to it.
 */
export function attachedPart(thread: ThreadContext, digest: string): MediaPart | undefined {
  for (const message of thread.conversation.getAllMessages()) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content)
      if (part.type !== 'text' && part.ref?.digest === digest) return part;
  }
  return undefined;
}
