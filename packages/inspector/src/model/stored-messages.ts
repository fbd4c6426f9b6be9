import type { LLMMessage } from '@skein/spec';
import { contentText, isPartsContent, TOOL_DESCRIPTION_KIND } from '@skein/spec';
import type { PartView } from './media-part-view.js';
import { mediaPartView } from './media-part-view.js';
import type { StoredMessage } from './types.js';

function partViews(message: LLMMessage, position: number, readsAttachments: boolean) {
  if (!isPartsContent(message.content)) return undefined;
  return message.content.map(
    (part, index): PartView =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : mediaPartView(part, position, index, readsAttachments),
  );
}

/**
 * Every stored message with its position and the marks the page draws. Media parts are described,
 * not copied: their bytes (megabytes, as base64) would be sent again on every reload of a live
 * thread, and the part route serves them when the page asks.
 */
export function storedMessages(
  messages: readonly LLMMessage[],
  readsAttachments = false,
): StoredMessage[] {
  return messages.map((message, position) => {
    const parts = partViews(message, position, readsAttachments);
    return {
      ...message,
      content: contentText(message.content),
      ...(parts === undefined ? {} : { parts }),
      position,
      isToolDescription: message.metadata?.kind === TOOL_DESCRIPTION_KIND,
      isError: message.role === 'tool' && message.metadata?.isError === true,
    };
  });
}
