import type { ContentPart, MessageContent } from './content-part.js';

/** True when `content` is a list of parts rather than plain text. */
export function isPartsContent(content: MessageContent): content is readonly ContentPart[] {
  return Array.isArray(content);
}

/**
 * The text of a content: itself when it is a string, else its text parts joined with nothing
 * between them (the way the AI SDK's UI messages join theirs), media parts left out. Code that
 * needs text (a template, a token count by characters, a log line) keeps working on parts.
 */
export function contentText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}
