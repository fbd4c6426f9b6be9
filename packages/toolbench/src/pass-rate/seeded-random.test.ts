import { describe, expect, it } from 'vitest';
import { coin, keyedRandom, seededRandom } from './seeded-random.js';

describe('seeded random', () => {
  it('gives the same numbers for the same seed and key, others for others', () => {
    expect(keyedRandom(42, ['unsure', '588', 1])).toBe(keyedRandom(42, ['unsure', '588', 1]));
    const values = new Set(
      [0, 1, 2, 3].flatMap((seed) =>
        ['a', 'b', 'c'].flatMap((qid) => [0, 1, 2].map((r) => keyedRandom(seed, [qid, r]))),
      ),
    );
    expect(values.size).toBe(36);
    // Keys are not confused by concatenation.
    expect(keyedRandom(1, ['ab', 'c'])).not.toBe(keyedRandom(1, ['a', 'bc']));
  });

  it('stays in [0, 1) and its coin is fair enough', () => {
    const next = seededRandom(7);
    let heads = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = next();
      expect(x >= 0 && x < 1).toBe(true);
      if (coin(3, ['q', i])) heads++;
    }
    // Binomial(20000, 0.5): the standard deviation is about 71; 5 of them either side.
    expect(Math.abs(heads - 10_000)).toBeLessThan(355);
  });
});
