import { createRequire } from 'node:module';
import type { LLMMessage } from './types.js';

/** Counts the tokens a message costs in a prompt. */
export type TokenCounter = (message: LLMMessage) => number;

type CountTokens = (text: string) => number;

// Per-message framing that chat formats add around each message (role markers, separators);
// OpenAI's cookbook counts 3 per message for current models.
const MESSAGE_OVERHEAD = 3;

let countText: CountTokens | undefined;

// gpt-tokenizer takes ~350 ms to load its o200k ranks, so it is required on first use instead of
// at import: most users of the package never truncate by tokens.
function loadTokenizer(): CountTokens {
  if (!countText) {
    const load = createRequire(import.meta.url);
    const tokenizer = load('gpt-tokenizer') as { countTokens: CountTokens };
    countText = tokenizer.countTokens;
  }
  return countText;
}

/** The default counter: o200k_base (GPT-4o family) through gpt-tokenizer, plus message framing. */
export const defaultTokenCounter: TokenCounter = (message) => {
  const count = loadTokenizer();
  let tokens = MESSAGE_OVERHEAD + count(message.content);
  if (message.name) tokens += count(message.name) + 1;
  for (const call of message.toolCalls ?? []) tokens += count(call.name) + count(call.arguments);
  return tokens;
};

/** Counts stored messages with `counter`, once per position (stored messages never change). */
export function cachedTokenCounter(
  counter: TokenCounter,
  lookup: (position: number) => LLMMessage,
): (position: number) => number {
  const cache = new Map<number, number>();
  return (position) => {
    let tokens = cache.get(position);
    if (tokens === undefined) {
      tokens = counter(lookup(position));
      cache.set(position, tokens);
    }
    return tokens;
  };
}
