import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DURATION_ACCURACY, DurationSketch } from './duration-sketch.js';

/** The exact values the `p`-th percentile may be: the lower quantile and the nearest rank. */
function exactBounds(values: readonly number[], p: number): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const lower = sorted[Math.floor((p / 100) * (sorted.length - 1))]!;
  const nearest =
    sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
  return [Math.min(lower, nearest), Math.max(lower, nearest)];
}

describe('DurationSketch', () => {
  it('gives every percentile within 1% of an exact one, and the exact max', () => {
    const duration = fc.oneof(
      fc.constant(0),
      fc.double({ min: 1e-3, max: 1e7, noNaN: true }),
      fc.integer({ min: 1, max: 10_000 }),
    );
    fc.assert(
      fc.property(
        fc.array(duration, { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 0, max: 100 }),
        (values, p) => {
          const sketch = new DurationSketch();
          for (const value of values) sketch.add(value);
          const [low, high] = exactBounds(values, p);
          const got = sketch.percentile(p);
          expect(got).toBeGreaterThanOrEqual(low * (1 - DURATION_ACCURACY) - 1e-9);
          expect(got).toBeLessThanOrEqual(high * (1 + DURATION_ACCURACY) + 1e-9);
          expect(got).toBeLessThanOrEqual(Math.max(...values));
          expect(sketch.max).toBe(Math.max(...values));
          expect(sketch.count).toBe(values.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps percentiles accurate over many items, and reads 0 when empty or not finite', () => {
    const sketch = new DurationSketch();
    expect([sketch.percentile(50), sketch.max]).toEqual([0, 0]);
    for (let i = 1; i <= 100_000; i++) sketch.add(i / 10);
    expect(Math.abs(sketch.percentile(50) - 5_000) / 5_000).toBeLessThanOrEqual(DURATION_ACCURACY);
    expect(Math.abs(sketch.percentile(95) - 9_500) / 9_500).toBeLessThanOrEqual(DURATION_ACCURACY);
    expect(sketch.max).toBe(10_000);
    const odd = new DurationSketch();
    odd.add(Number.NaN);
    odd.add(Number.POSITIVE_INFINITY);
    expect([odd.percentile(50), odd.max, odd.count]).toEqual([0, 0, 2]);
  });
});
