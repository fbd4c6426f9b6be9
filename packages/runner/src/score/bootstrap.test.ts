import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapMean, bootstrapPairedDifference, percentileInterval } from './bootstrap.js';
import { seededRandom } from './seeded-random.js';

// Few resamples keep the properties fast; the cut works the same at any count.
const quick = { resamples: 400 };
const score = fc.double({ min: 0, max: 1, noNaN: true });
const seed = fc.integer({ min: 0, max: 0xffffffff });
/** -0 and 0 differ for toBe; a difference of nothing is either. */
const plain = (value: number | undefined) => (value === undefined ? value : value + 0);

describe('seededRandom', () => {
  it('gives numbers in [0, 1), the same for the same seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const drawn = Array.from({ length: 1000 }, () => a());
    expect(drawn).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(drawn.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seededRandom(43)()).not.toBe(drawn[0]);
  });
});

describe('percentileInterval', () => {
  it('cuts at the (R + 1)·2.5%-th resample from each end', () => {
    const sorted = (n: number) => Float64Array.from({ length: n }, (_, i) => i);
    expect(percentileInterval(sorted(10_000))).toEqual({ lo: 249, hi: 9750 });
    expect(percentileInterval(sorted(79))).toEqual({ lo: 1, hi: 77 });
    expect(percentileInterval(sorted(78))).toEqual({ lo: 0, hi: 77 });
    expect(percentileInterval(sorted(1))).toEqual({ lo: 0, hi: 0 });
  });
});

describe('bootstrapMean', () => {
  it('has no interval for no values, and a zero-width one for one value', () => {
    expect(bootstrapMean([])).toEqual({ n: 0 });
    expect(bootstrapMean([0.7])).toEqual({ n: 1, mean: 0.7, ci: { lo: 0.7, hi: 0.7 } });
  });

  it('matches hand-computed intervals', () => {
    // [0, 0, 0, 1]: a resample's mean is K/4, K ~ Binomial(4, 1/4). P(K = 0) = 0.32 puts the
    // lower cut at 0; P(K ≥ 3) = 0.051 and P(K = 4) = 0.004 put the upper one at 0.75.
    expect(bootstrapMean([0, 0, 0, 1])).toEqual({ n: 4, mean: 0.25, ci: { lo: 0, hi: 0.75 } });
    // [0, 1]: means 0, 0.5, 1 with probabilities 1/4, 1/2, 1/4.
    expect(bootstrapMean([0, 1])).toEqual({ n: 2, mean: 0.5, ci: { lo: 0, hi: 1 } });
    expect(bootstrapMean([0.25, 0.25, 0.25])).toEqual({
      n: 3,
      mean: 0.25,
      ci: { lo: 0.25, hi: 0.25 },
    });
  });

  it('holds the sample mean inside its interval', () => {
    fc.assert(
      fc.property(fc.array(score, { minLength: 1, maxLength: 40 }), seed, (values, s) => {
        const { mean, ci } = bootstrapMean(values, { ...quick, seed: s });
        expect(ci!.lo).toBeLessThanOrEqual(mean!);
        expect(ci!.hi).toBeGreaterThanOrEqual(mean!);
      }),
    );
  });

  it('gives the same interval for the same seed', () => {
    fc.assert(
      fc.property(fc.array(score, { minLength: 1, maxLength: 40 }), seed, (values, s) => {
        expect(bootstrapMean(values, { ...quick, seed: s })).toEqual(
          bootstrapMean(values, { ...quick, seed: s }),
        );
      }),
    );
  });
});

describe('bootstrapPairedDifference', () => {
  it('matches hand-computed cases', () => {
    expect(bootstrapPairedDifference([], [])).toEqual({ n: 0, real: false });
    // One item: an interval of width 0, but no spread to call it real by.
    expect(bootstrapPairedDifference([0], [1])).toEqual({
      n: 1,
      mean: 1,
      ci: { lo: 1, hi: 1 },
      real: false,
    });
    // The same +0.5 on both items: no noise at all.
    expect(bootstrapPairedDifference([0.25, 0.5], [0.75, 1])).toEqual({
      n: 2,
      mean: 0.5,
      ci: { lo: 0.5, hi: 0.5 },
      real: true,
    });
    // One item of four went 0 → 1: the interval [0, 0.75] (see bootstrapMean) touches zero.
    expect(bootstrapPairedDifference([0, 0, 0, 0], [0, 0, 0, 1])).toEqual({
      n: 4,
      mean: 0.25,
      ci: { lo: 0, hi: 0.75 },
      real: false,
    });
  });

  it('refuses lists of different lengths', () => {
    expect(() => bootstrapPairedDifference([1], [1, 0])).toThrow(RangeError);
  });

  it('is exactly 0, with interval [0, 0] and not real, for identical scores', () => {
    fc.assert(
      fc.property(fc.array(score, { maxLength: 40 }), seed, (values, s) => {
        const d = bootstrapPairedDifference(values, [...values], { ...quick, seed: s });
        expect(d.real).toBe(false);
        if (values.length === 0) return;
        expect(d.mean).toBe(0);
        expect(d.ci).toEqual({ lo: 0, hi: 0 });
      }),
    );
  });

  it('negates the difference and mirrors the interval when A and B swap', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(score, score), { minLength: 1, maxLength: 40 }),
        seed,
        (pairs, s) => {
          const a = pairs.map(([x]) => x);
          const b = pairs.map(([, y]) => y);
          const forward = bootstrapPairedDifference(a, b, { ...quick, seed: s });
          const back = bootstrapPairedDifference(b, a, { ...quick, seed: s });
          expect(plain(back.mean)).toBe(plain(-forward.mean!));
          expect(plain(back.ci!.lo)).toBe(plain(-forward.ci!.hi));
          expect(plain(back.ci!.hi)).toBe(plain(-forward.ci!.lo));
          expect(back.real).toBe(forward.real);
        },
      ),
    );
  });

  it('calls a shift of +0.5 on every item real', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 0.5, noNaN: true }), { minLength: 2, maxLength: 40 }),
        seed,
        (a, s) => {
          const d = bootstrapPairedDifference(
            a,
            a.map((x) => x + 0.5),
            { ...quick, seed: s },
          );
          expect(d.real).toBe(true);
          expect(d.ci!.lo).toBeGreaterThan(0.49);
        },
      ),
    );
  });
});
