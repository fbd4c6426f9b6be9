import { describe, expect, it } from 'vitest';
import { scorerInput } from '../../test-support/scorer-input.js';
import { functionScorer } from './function-scorer.js';

describe('functionScorer', () => {
  it('takes a boolean, a number or a whole value, at once or as a promise', async () => {
    const input = scorerInput({ output: 'four words in here' });
    const words = (i: typeof input) => String(i.result.output).split(' ').length;
    expect(functionScorer('short', (i) => words(i) < 10).score(input)).toEqual({ score: 1 });
    expect(functionScorer('share', (i) => words(i) / 8).score(input)).toEqual({ score: 0.5 });
    expect(
      functionScorer('why', () => ({ score: 0.25, reason: 'because', details: { n: 1 } })).score(
        input,
      ),
    ).toEqual({ score: 0.25, reason: 'because', details: { n: 1 } });
    await expect(functionScorer('later', async () => false).score(input)).resolves.toEqual({
      score: 0,
    });
  });

  it('answers a function that answers at once at once', () => {
    const value = functionScorer('now', () => 1).score(scorerInput());
    expect(value instanceof Promise).toBe(false);
  });

  it('refuses a name that is empty and a fn that is not a function', () => {
    expect(() => functionScorer('', () => 1)).toThrow('non-empty');
    expect(() => functionScorer('x', 1 as never)).toThrow('function');
  });
});
