import { createRequire } from 'node:module';
import { type TokenCounter, tokenCounterFromText } from './token-counter.js';

type CountTokens = (text: string) => number;

let countText: CountTokens | undefined;

// gpt-tokenizer takes ~350 ms to load its o200k ranks, so it is required on first count instead
// of at import: importing this entry stays cheap for apps that count only now and then.
function o200k(text: string): number {
  if (!countText) {
    const load = createRequire(import.meta.url);
    countText = (load('gpt-tokenizer') as { countTokens: CountTokens }).countTokens;
  }
  return countText(text);
}

/**
 * Exact o200k_base (GPT-4o, GPT-4.1, o-series) counts through `gpt-tokenizer`, an optional peer
 * dependency to install beside this package; plus 3 tokens of framing per message.
 */
export const o200kTokenCounter: TokenCounter = tokenCounterFromText(o200k);
