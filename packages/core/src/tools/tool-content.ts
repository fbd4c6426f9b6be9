import { type ContentPart, isMediaPart, type MessageContent } from '@skein/spec';

/**
 * A tool message's content: the result's text, as it has always been, followed by the media
 * parts the tool returned (`toolOutput({ content: parts })`), so the model sees the image or the
 * file. Text alone stays a string: a text-only result is stored as before.
 */
export function toolMessageContent(
  text: string,
  parts: readonly ContentPart[] | undefined,
): MessageContent {
  const media = parts?.filter(isMediaPart) ?? [];
  if (media.length === 0) return text;
  return text === '' ? media : [{ type: 'text', text }, ...media];
}
