import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../test-support/temp-folder.js';
import { compareRuns } from './compare-runs.js';
import { compareScores } from './compare-scores.js';
import type { ScoresByScorer } from './read-scores.js';

function scores(byScorer: Record<string, Record<string, number>>): ScoresByScorer {
  return new Map(
    Object.entries(byScorer).map(([scorer, items]) => [scorer, new Map(Object.entries(items))]),
  );
}

const quick = { resamples: 400 };

describe('compareScores', () => {
  it('compares scorer by scorer, listing what only one run has', () => {
    const a = scores({
      exact: { q1: 1, q2: 0, q3: 1, q4: 0 },
      fluency: { q1: 0.5 },
      onlyA: { q1: 1 },
    });
    const b = scores({
      exact: { q3: 0.5, q2: 1, q1: 1, q5: 1 },
      fluency: { q1: 0.5 },
      onlyB: { q1: 1 },
    });
    const comparison = compareScores(a, b);
    expect(comparison.scorersOnlyInA).toEqual(['onlyA']);
    expect(comparison.scorersOnlyInB).toEqual(['onlyB']);
    expect(comparison.scorers.map((s) => s.scorer)).toEqual(['exact', 'fluency']);
    const [exact, fluency] = comparison.scorers;
    expect(exact).toMatchObject({
      n: 3,
      a: { n: 4, mean: 0.5 },
      b: { n: 4, mean: 0.875 },
      changed: [
        { itemId: 'q2', a: 0, b: 1, difference: 1 },
        { itemId: 'q3', a: 1, b: 0.5, difference: -0.5 },
      ],
      itemsOnlyInA: ['q4'],
      itemsOnlyInB: ['q5'],
    });
    expect(exact!.difference.n).toBe(3);
    expect(exact!.difference.mean).toBeCloseTo(0.5 / 3, 12);
    expect(fluency).toEqual({
      scorer: 'fluency',
      n: 1,
      a: { n: 1, mean: 0.5, ci: { lo: 0.5, hi: 0.5 } },
      b: { n: 1, mean: 0.5, ci: { lo: 0.5, hi: 0.5 } },
      difference: { n: 1, mean: 0, ci: { lo: 0, hi: 0 }, real: false },
      changed: [],
      itemsOnlyInA: [],
      itemsOnlyInB: [],
    });
  });

  it('has no difference for a scorer whose items do not overlap', () => {
    const [s] = compareScores(scores({ x: { q1: 1 } }), scores({ x: { q2: 0 } })).scorers;
    expect(s).toMatchObject({ n: 0, difference: { n: 0, real: false }, changed: [] });
    expect(s!.difference.ci).toBeUndefined();
  });

  it('sorts changed items by the size of the change, then by id', () => {
    const a = scores({ x: { q9: 0, q10: 1, q2: 0.5, q1: 0.25 } });
    const b = scores({ x: { q9: 1, q10: 0, q2: 0.75, q1: 0.5 } });
    const [s] = compareScores(a, b).scorers;
    expect(s!.changed.map((c) => c.itemId)).toEqual(['q10', 'q9', 'q1', 'q2']);
  });

  it('gives the same comparison whatever the line order, for the same seed', () => {
    const items = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`q${i}`, (i % 7) / 6]));
    const reversed = Object.fromEntries(Object.entries(items).reverse());
    const b = scores({ x: Object.fromEntries(Object.entries(items).map(([k, v]) => [k, 1 - v])) });
    expect(compareScores(scores({ x: items }), b, { seed: 7 })).toEqual(
      compareScores(scores({ x: reversed }), b, { seed: 7 }),
    );
  });

  const run = fc.dictionary(
    fc.constantFrom('q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8'),
    fc.double({ min: 0, max: 1, noNaN: true }),
    { minKeys: 1 },
  );
  const seed = fc.integer({ min: 0, max: 0xffffffff });
  const plain = (value: number | undefined) => (value === undefined ? value : value + 0);

  it('negates the difference, mirrors its interval and swaps the changes when A and B swap', () => {
    fc.assert(
      fc.property(run, run, seed, (x, y, s) => {
        const forward = compareScores(scores({ m: x }), scores({ m: y }), { ...quick, seed: s });
        const back = compareScores(scores({ m: y }), scores({ m: x }), { ...quick, seed: s });
        const [f, g] = [forward.scorers[0]!, back.scorers[0]!];
        expect(g.a).toEqual(f.b);
        expect(g.b).toEqual(f.a);
        expect(g.itemsOnlyInA).toEqual(f.itemsOnlyInB);
        expect(g.difference.real).toBe(f.difference.real);
        if (f.n === 0) return;
        expect(plain(g.difference.mean)).toBe(plain(-f.difference.mean!));
        expect(plain(g.difference.ci!.lo)).toBe(plain(-f.difference.ci!.hi));
        expect(plain(g.difference.ci!.hi)).toBe(plain(-f.difference.ci!.lo));
        expect(g.changed.map((c) => c.itemId)).toEqual(f.changed.map((c) => c.itemId));
      }),
    );
  });

  it('finds nothing between identical runs', () => {
    fc.assert(
      fc.property(run, seed, (x, s) => {
        const [c] = compareScores(scores({ m: x }), scores({ m: { ...x } }), {
          ...quick,
          seed: s,
        }).scorers;
        expect(c!.difference).toMatchObject({ mean: 0, ci: { lo: 0, hi: 0 }, real: false });
        expect(c!.changed).toEqual([]);
      }),
    );
  });
});

describe('compareRuns', () => {
  it('reads both folders and records the seed, resamples and torn lines', async () => {
    const [a, b] = [tempFolder(), tempFolder()];
    writeFileSync(
      join(a, 'scores.jsonl'),
      '{"itemId":"q1","scorer":"x","score":1}\n{"itemId":"q2"',
    );
    writeFileSync(join(b, 'scores.jsonl'), '{"itemId":"q1","scorer":"x","score":0}\n');
    const comparison = await compareRuns(a, b, { seed: 5, resamples: 100 });
    expect(comparison).toMatchObject({
      runA: { folder: a, file: join(a, 'scores.jsonl'), tornLine: 2 },
      runB: { folder: b, file: join(b, 'scores.jsonl') },
      seed: 5,
      resamples: 100,
      scorers: [{ scorer: 'x', n: 1, difference: { mean: -1 } }],
    });
    expect(comparison.runB.tornLine).toBeUndefined();
    expect(await compareRuns(a, b)).toMatchObject({ seed: 1, resamples: 10_000 });
  });
});
