import { contentText, type MessageContent } from '@skein/spec';
import { partError } from './part-error.js';
import { checkWireContent } from './to-chat-content.js';

/**
 * An assistant message's content in Chat Completions form: its text (parts' text joined). The
 * wire takes no media from the assistant, and dropping a part would change what the model said,
 * so a media part is refused, named (`messages[3].content[0]`).
 */
export function toAssistantContent(content: MessageContent, at: string): string {
  const checked = checkWireContent(content, at);
  if (typeof checked !== 'string')
    for (const [index, part] of checked.entries())
      if (part.type !== 'text')
        throw partError(
          `${at}[${index}]`,
          index,
          part,
          'role',
          'an assistant message can hold only text on the Chat Completions wire',
          'type',
        );
  return contentText(checked);
}
