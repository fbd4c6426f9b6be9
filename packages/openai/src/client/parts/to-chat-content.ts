import { checkContent, type MessageContent } from '@skein/spec';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { PartSourceOptions } from './part-options.js';
import { toChatPart } from './to-chat-part.js';

/**
 * Refuses what `checkContent` refuses, with its error. No size limit here: the app set its own
 * where content entered, and the provider enforces its own.
 */
export function checkWireContent(content: unknown, at: string): MessageContent {
  return checkContent(content, at, { maxAttachmentBytes: Number.POSITIVE_INFINITY });
}

/**
 * A user message's content in Chat Completions form (`at` names it, `messages[2].content`): a
 * string stays a string; parts become `text`, `image_url`, `input_audio` and `file` parts. Images
 * by http(s) URL go as URLs (the provider fetches them); audio and files must go as bytes, so one
 * by URL needs `options.fetcher`, and a part by `ref` needs `options.resolveRef`. Throws
 * `InvalidArgumentError` naming the part (`messages[2].content[1]`) for what the wire cannot carry.
 */
export async function toChatContent(
  content: MessageContent,
  at: string,
  options: PartSourceOptions = {},
): Promise<string | ChatCompletionContentPart[]> {
  const checked = checkWireContent(content, at);
  if (typeof checked === 'string') return checked;
  // An empty array is refused by the API ("expected an array with minimum length 1").
  if (checked.length === 0) return '';
  return Promise.all(
    checked.map((part, index) => toChatPart(part, { path: `${at}[${index}]`, index }, options)),
  );
}
