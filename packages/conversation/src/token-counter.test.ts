import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { defaultTokenCounter, tokenCounterFromText } from './token-counter.js';
import { o200kTokenCounter } from './token-counter-o200k.js';
import { estimateTokens } from './token-estimate.js';

const english =
  'The engine drives the model, runs tools, keeps the conversation, emits events and ' +
  'checkpoints, and can pause, resume and roll back. A user declares a workflow, registers ' +
  'tools, builds a thread and executes it.';
const code = `export function cachedTokenCounter(counter: TokenCounter, lookup: (position: number) => LLMMessage) {
  const cache = new Map<number, number>();
  return (position) => {
    let tokens = cache.get(position);
    if (tokens === undefined) tokens = counter(lookup(position));
    return tokens;
  };
}`;
const json = JSON.stringify({ city: 'Paris', days: 3, units: ['c', 'f'], id: 'call_8fK2x9Lq' });
const chinese = '请帮我查询一下明天从北京到上海的高铁票，最好是上午出发的，二等座就可以。';
const japanese = '東京の天気を教えてください。明日は雨が降りますか？傘を持って行くべきでしょうか。';

const error = (text: string) =>
  Math.abs(estimateTokens(text) - countTokens(text)) / countTokens(text);

describe('estimateTokens', () => {
  it('stays near o200k_base on English, code and JSON', () => {
    expect(error(english)).toBeLessThan(0.15);
    expect(error(code)).toBeLessThan(0.2);
    expect(error(json)).toBeLessThan(0.2);
  });

  it('stays near o200k_base on CJK text', () => {
    expect(error(chinese)).toBeLessThan(0.3);
    expect(error(japanese)).toBeLessThan(0.3);
  });

  it('counts nothing as nothing and an emoji once', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('👍')).toBe(1);
  });
});

describe('message counters', () => {
  const message = {
    role: 'assistant' as const,
    content: 'hello world',
    name: 'bot',
    toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }],
  };

  it('add 3 tokens of framing, the name and the tool calls', () => {
    const counter = tokenCounterFromText((text) => text.length);
    expect(counter(message)).toBe(3 + 11 + 3 + 1 + 7 + 16);
  });

  it('count exactly with o200k_base through the opt-in counter', () => {
    expect(o200kTokenCounter({ role: 'user', content: 'hello world' })).toBe(2 + 3);
    const exact = o200kTokenCounter(message);
    expect(Math.abs(defaultTokenCounter(message) - exact) / exact).toBeLessThan(0.25);
  });
});
