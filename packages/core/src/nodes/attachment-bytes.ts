import type { ContentPart, LLMMessage, MediaPart } from '@skein/spec';

/** Reads an attachment's bytes through a thread that refers to it (`CheckpointStore.readAttachment`). */
export type AttachmentReader = (
  threadId: string,
  digest: string,
) => Promise<Uint8Array | undefined>;

/** True when a message holds a media part by `ref` (what `withAttachmentBytes` reads). */
export function hasRef(message: LLMMessage): boolean {
  return (
    typeof message.content !== 'string' &&
    message.content.some((part) => 'ref' in part && part.ref !== undefined)
  );
}

/**
 * The messages a model call sends: each media part a store holds by `ref` (a thread loaded from a
 * store) with its bytes read back inline, so every `LLMClient` gets bytes whatever store is
 * behind it. A ref the store does not hold (an app's own, read by its client's `resolveRef`)
 * stays a ref. Messages without refs are passed as they are: a thread that ran in this process
 * holds its bytes inline, and reads nothing.
 */
export async function withAttachmentBytes(
  messages: readonly LLMMessage[],
  threadId: string,
  read: AttachmentReader | undefined,
): Promise<readonly LLMMessage[]> {
  if (read === undefined || !messages.some(hasRef)) return messages;
  return Promise.all(
    messages.map(async (message) => {
      if (!hasRef(message)) return message;
      const parts = await Promise.all(
        (message.content as readonly ContentPart[]).map(async (part): Promise<ContentPart> => {
          if (part.type === 'text' || part.ref === undefined) return part;
          const bytes = await read(threadId, part.ref.digest);
          if (bytes === undefined) return part;
          const { ref: _ref, ...rest } = part;
          return { ...rest, data: bytes } as MediaPart;
        }),
      );
      return { ...message, content: parts };
    }),
  );
}
