import { ConversationError } from '@skein/conversation';
import type { LLMMessage } from '@skein/spec';

/**
 * The text of a message this adapter sends, or a typed error for content in parts: mapping
 * parts to the Chat Completions wire is a step of its own (issue 44), and dropping a part
 * would answer a question the user did not ask.
 */
export function sentText(message: LLMMessage, index: number): string {
  if (typeof message.content === 'string') return message.content;
  throw ConversationError.invalidConversation(
    index,
    'this adapter does not send content parts yet (send text, or wait for the parts mapping of @skein/openai)',
    { partTypes: message.content.map((part) => part.type) },
  );
}
