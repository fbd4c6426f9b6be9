import { describe, expect, it } from 'vitest';
import { ScoreError } from '../../errors/score-error.js';
import { scorerInput } from '../../test-support/scorer-input.js';
import { exactMatch } from './exact-match.js';

describe('exactMatch', () => {
  it('scores 1 when the output equals the item field, trimmed by default', () => {
    const scorer = exactMatch();
    expect(scorer.name).toBe('exact-match');
    // A match needs no reason: the 1 says it.
    expect(scorer.score(scorerInput({ item: { expected: 'Paris' }, output: ' Paris\n' }))).toEqual({
      score: 1,
    });
  });

  it('scores 0 with both values in the reason', () => {
    const value = exactMatch().score(scorerInput({ item: { expected: 'Paris' }, output: 'paris' }));
    expect(value).toEqual({ score: 0, reason: 'expected "Paris", got "paris"' });
  });

  it('ignores case and keeps white space when told', () => {
    const input = scorerInput({ item: { answer: 'Paris' }, output: 'PARIS' });
    expect(exactMatch({ expected: 'answer', ignoreCase: true }).score(input)).toMatchObject({
      score: 1,
    });
    const spaced = scorerInput({ item: { expected: 'Paris' }, output: 'Paris ' });
    expect(exactMatch({ trim: false }).score(spaced)).toMatchObject({ score: 0 });
  });

  it('takes the expected value and the compared value from functions', () => {
    const scorer = exactMatch({
      name: 'city',
      expected: (input) => (input.item as { cities: string[] }).cities[0],
      actual: (input) => (input.result.output as { city: string }).city,
    });
    const input = scorerInput({ item: { cities: ['Lima'] }, output: { city: 'Lima' } });
    expect(scorer.score(input)).toMatchObject({ score: 1 });
  });

  it('compares other values as JSON, whatever the key order', () => {
    const input = scorerInput({
      item: { expected: { a: 1, b: [1, 2] } },
      output: { b: [1, 2], a: 1 },
    });
    expect(exactMatch().score(input)).toMatchObject({ score: 1 });
    const other = scorerInput({ item: { expected: 42 }, output: '42' });
    expect(exactMatch().score(other)).toMatchObject({ score: 0 });
  });

  it('scores a failed item without output 0', () => {
    const input = scorerInput({ item: { expected: 'x' }, status: 'FAILED' });
    expect(exactMatch().score(input)).toEqual({
      score: 0,
      reason: 'no output (the item is FAILED)',
    });
  });

  it('gives no score for an item without an expected value', () => {
    const error = (() => {
      try {
        exactMatch().score(scorerInput({ item: { question: 'q' }, output: 'a' }));
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(ScoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SCORE_INPUT_MISSING', scorer: 'exact-match' });
    expect((error as Error).message).toContain('has no "expected" field');
  });
});
