import type { LLMMessage, MessageContent } from '@skein/spec';
import { mediaTokens } from './media-tokens.js';
import { estimateTokens } from './token-estimate.js';

/** Counts the tokens a message costs in a prompt. */
export type TokenCounter = (message: LLMMessage) => number;

// Per-message framing that chat formats add around each message (role markers, separators);
// OpenAI's cookbook counts 3 per message for current models.
const MESSAGE_OVERHEAD = 3;

/** A content's tokens: its text parts by `count`, its media parts by `mediaTokens`. */
function contentTokens(content: MessageContent, count: (text: string) => number): number {
  if (typeof content === 'string') return count(content);
  let tokens = 0;
  for (const part of content) tokens += part.type === 'text' ? count(part.text) : mediaTokens(part);
  return tokens;
}

/**
 * A message counter from a text counter: content (text as text, media parts by `mediaTokens`),
 * name and tool calls, plus message framing.
 */
export function tokenCounterFromText(count: (text: string) => number): TokenCounter {
  return (message) => {
    let tokens = MESSAGE_OVERHEAD + contentTokens(message.content, count);
    if (message.name) tokens += count(message.name) + 1;
    for (const call of message.toolCalls ?? []) tokens += count(call.name) + count(call.arguments);
    return tokens;
  };
}

/**
 * The default counter: an o200k_base estimate with no tokenizer to load (see `estimateTokens`),
 * plus message framing. For exact counts use `o200kTokenCounter` from
 * `@skein/conversation/tokenizer`.
 */
export const defaultTokenCounter: TokenCounter = tokenCounterFromText(estimateTokens);

/** Counts stored messages with `counter`, once per position (stored messages never change). */
export function cachedTokenCounter(
  counter: TokenCounter,
  lookup: (position: number) => LLMMessage,
): (position: number) => number {
  // Made on the first count: most conversations are never measured.
  let cache: Map<number, number> | undefined;
  return (position) => {
    let tokens = cache?.get(position);
    if (tokens === undefined) {
      tokens = counter(lookup(position));
      cache ??= new Map();
      cache.set(position, tokens);
    }
    return tokens;
  };
}
