import type { ChatCompletionsBody, RecordedRequest } from './types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The text of a message's content as a client sent it: the string, or its `text` parts joined
 * with nothing between them (as `contentText` joins Skein's parts); '' for anything else.
 */
export function wireContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content)
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') text += part.text;
  return text;
}

/**
 * The text of the last `user` message of a request (a recorded one, or its body), its parts'
 * text when it has parts; undefined when there is no user message. What a script function
 * matches on: `(request) => lastUserText(request)?.includes('chart') ? … : …`.
 */
export function lastUserText(request: RecordedRequest | ChatCompletionsBody): string | undefined {
  const body = 'method' in request && 'headers' in request ? request.body : request;
  const messages = isRecord(body) ? body.messages : undefined;
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message: unknown = messages[i];
    if (isRecord(message) && message.role === 'user') return wireContentText(message.content);
  }
  return undefined;
}
