import { contentText, type MessageContent } from '@skein/spec';
import { partError } from './part-error.js';
import { checkWireContent } from './to-chat-content.js';

/**
 * The text of a message whose role takes only text on the Chat Completions wire (parts' text
 * joined). Dropping a media part would change what was said, so one is refused, named
 * (`messages[3].content[0]`).
 */
function textOnlyContent(
  content: MessageContent,
  at: string,
  role: 'assistant' | 'system',
): string {
  const checked = checkWireContent(content, at);
  if (typeof checked !== 'string')
    for (const [index, part] of checked.entries())
      if (part.type !== 'text')
        throw partError(
          `${at}[${index}]`,
          index,
          part,
          'role',
          `${role === 'assistant' ? 'an assistant' : 'a system'} message can hold only text on the Chat Completions wire`,
          'type',
        );
  return contentText(checked);
}

/** An assistant message's content in Chat Completions form: its text. */
export function toAssistantContent(content: MessageContent, at: string): string {
  return textOnlyContent(content, at, 'assistant');
}

/** A system message's content in Chat Completions form: its text. */
export function toSystemContent(content: MessageContent, at: string): string {
  return textOnlyContent(content, at, 'system');
}
