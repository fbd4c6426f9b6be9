// The `@skein/conversation/tokenizer` entry: exact counting, for those who install the optional
// peer `gpt-tokenizer` (about 30 MB). The main entry never loads it.

export type { TokenCounter } from './token-counter.js';
export { o200kTokenCounter } from './token-counter-o200k.js';
