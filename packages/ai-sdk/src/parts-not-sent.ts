import { type MessageContent, SkeinError } from '@skein/spec';

/**
 * The text of a content this package maps, or a typed error (`CONTENT_PARTS_UNSUPPORTED`,
 * naming `where`) for content in parts: mapping parts to AI SDK prompt and UI parts is a step of
 * its own (issue 44), and dropping a part would answer a question the user did not ask.
 */
export function sentText(content: MessageContent, where: string): string {
  if (typeof content === 'string') return content;
  throw new SkeinError(
    'CONTENT_PARTS_UNSUPPORTED',
    `${where}: this adapter does not send content parts yet (parts: ${content.map((p) => p.type).join(', ')})`,
    { details: { where, partTypes: content.map((p) => p.type) } },
  );
}
