import type { LLMMessage } from '@skein/spec';
import { TOOL_DESCRIPTION_KIND } from '@skein/spec';
import type { StoredMessage } from './types.js';

/** Every stored message with its position and the marks the page draws. */
export function storedMessages(messages: readonly LLMMessage[]): StoredMessage[] {
  return messages.map((message, position) => ({
    ...message,
    position,
    isToolDescription: message.metadata?.kind === TOOL_DESCRIPTION_KIND,
    isError: message.role === 'tool' && message.metadata?.isError === true,
  }));
}
