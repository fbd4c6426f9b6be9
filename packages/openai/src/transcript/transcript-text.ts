import { InvalidArgumentError, type LLMMessage } from '@skein/spec';

/**
 * A message's text for a transcript without `media: 'user-images'`: text only (media
 * by URL or ref would need the async fetcher and resolver the client has, and a tool result's
 * media become an extra message that `restoreTranscript` cannot fold back yet, decision 0032), so
 * content in parts is refused, named, rather than written without its media.
 */
export function transcriptText(message: LLMMessage, index: number): string {
  if (typeof message.content === 'string') return message.content;
  throw new InvalidArgumentError(
    `messages[${index}].content`,
    `messages[${index}].content: exportTranscript writes text content only, not parts (${message.content.map((part) => part.type).join(', ')}); media: 'user-images' writes user images`,
    { partTypes: message.content.map((part) => part.type) },
  );
}
