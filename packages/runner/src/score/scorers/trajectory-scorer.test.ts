import { describe, expect, it } from 'vitest';
import { calling, scorerInput } from '../../test-support/scorer-input.js';
import type { ScoreValue } from '../scorer.js';
import { matchTrajectory } from './match-trajectory.js';
import { trajectoryScorer } from './trajectory-scorer.js';

const search = { name: 'search', arguments: { q: 'weather lisbon' } };
const forecast = { name: 'forecast', arguments: { city: 'Lisbon' } };
const book = { name: 'book' };

/** A thread that called these tools, and an item that expects `expected`. */
function input(expected: unknown, ...calls: [string, Record<string, unknown>?][]) {
  return scorerInput({ item: { expectedToolCalls: expected }, messages: [calling(...calls)] });
}

const score = (value: ScoreValue | Promise<ScoreValue>) => value as ScoreValue;

describe('trajectoryScorer', () => {
  it('scores the expected calls made in order 1', () => {
    const value = score(
      trajectoryScorer().score(
        input(
          [search, forecast],
          ['search', { q: 'weather lisbon', page: 1 }],
          ['forecast', { city: 'Lisbon' }],
        ),
      ),
    );
    expect(value).toMatchObject({ score: 1, reason: '2 of 2 expected calls in order' });
  });

  it('scores a wrong trajectory below 1, naming what is missing and extra', () => {
    const value = score(
      trajectoryScorer({ allowExtra: false }).score(
        input(
          [search, forecast, book],
          ['search', { q: 'weather lisbon' }],
          ['delete_account', {}],
        ),
      ),
    );
    expect(value.score).toBeCloseTo(1 / 3);
    expect(value.reason).toBe(
      '1 of 3 expected calls in order; missing: forecast({"city":"Lisbon"}), book; extra: delete_account({})',
    );
    expect(value.details).toMatchObject({ matched: 1, missing: [forecast, book] });
  });

  it('uses each item’s own expected calls, never an empty list (mastra#21743)', () => {
    const scorer = trajectoryScorer();
    const calls: [string, Record<string, unknown>][] = [['search', { q: 'weather lisbon' }]];
    expect(score(scorer.score(input([search], ...calls))).score).toBe(1);
    // The same scorer and thread against another item's expectation: not a free 1.
    expect(score(scorer.score(input([forecast], ...calls))).score).toBe(0);
    expect(score(scorer.score(input([search, book], ...calls))).score).toBe(0.5);
    // No expectation at all is no score, not a vacuous 1.
    expect(() => scorer.score(scorerInput({ item: {}, messages: [calling(...calls)] }))).toThrow(
      'has no "expectedToolCalls" field',
    );
    expect(() => scorer.score(input('search', ...calls))).toThrow('not a list');
  });

  it('counts calls out of order against in-order, not against unordered', () => {
    const calls: [string, Record<string, unknown>][] = [
      ['forecast', { city: 'Lisbon' }],
      ['search', { q: 'weather lisbon' }],
    ];
    const ordered = score(trajectoryScorer().score(input([search, forecast], ...calls)));
    expect(ordered.score).toBe(0.5);
    expect(ordered.reason).toContain('out of order: ');
    const unordered = score(
      trajectoryScorer({ mode: 'unordered' }).score(input([search, forecast], ...calls)),
    );
    expect(unordered).toMatchObject({ score: 1, reason: '2 of 2 expected calls' });
  });

  it('allows extra calls by default, and counts them when told not to', () => {
    const calls: [string, Record<string, unknown>?][] = [
      ['search', { q: 'weather lisbon' }],
      ['log'],
      ['log'],
    ];
    expect(score(trajectoryScorer().score(input([search], ...calls)))).toMatchObject({
      score: 1,
      reason: expect.stringContaining('extra (allowed): log({}), log({})'),
    });
    expect(
      score(trajectoryScorer({ allowExtra: false }).score(input([search], ...calls))).score,
    ).toBeCloseTo(1 / 3);
    expect(score(trajectoryScorer({ allowExtra: false }).score(input([], ...calls))).score).toBe(0);
    expect(score(trajectoryScorer({ allowExtra: false }).score(input([]))).score).toBe(1);
  });

  it('compares arguments as a subset by default, whole with arguments: exact', () => {
    const calls: [string, Record<string, unknown>][] = [
      ['search', { q: 'weather lisbon', page: 2 }],
    ];
    expect(score(trajectoryScorer().score(input([search], ...calls))).score).toBe(1);
    expect(
      score(trajectoryScorer({ arguments: 'exact' }).score(input([search], ...calls))).score,
    ).toBe(0);
    expect(
      score(
        trajectoryScorer().score(input([{ name: 'search', arguments: { q: 'other' } }], ...calls)),
      ).score,
    ).toBe(0);
  });

  it('takes the expected calls from a function', () => {
    const scorer = trajectoryScorer({
      expected: (i) => (i.item as { plan: unknown[] }).plan as never,
    });
    const value = scorer.score(
      scorerInput({ item: { plan: [book] }, messages: [calling(['book', { seat: '4A' }])] }),
    );
    expect(score(value).score).toBe(1);
  });
});

describe('matchTrajectory', () => {
  const call = (name: string) => ({ id: name, name, arguments: {} });

  it('finds the longest in-order match, not the first greedy one', () => {
    const expected = ['a', 'b', 'c'].map((name) => ({ name }));
    const match = matchTrajectory(expected, ['c', 'a', 'b', 'c'].map(call), 'in-order', 'subset');
    expect(match.matched).toBe(3);
    expect(match.extra.map((c) => c.name)).toEqual(['c']);
  });

  it('matches unordered calls one to one, as many as can be', () => {
    const expected = [{ name: 'a' }, { name: 'a', arguments: { x: 1 } }];
    const calls = [
      { id: '1', name: 'a', arguments: { x: 1 } },
      { id: '2', name: 'a', arguments: { x: 2 } },
    ];
    const match = matchTrajectory(expected, calls, 'unordered', 'subset');
    expect(match.matched).toBe(2);
    expect(match.extra).toEqual([]);
  });
});
