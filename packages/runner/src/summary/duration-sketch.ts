import { LogCollapsingLowestDenseDDSketch } from '@datadog/sketches-js';

/** Relative error of the percentiles: 1% of the true value. */
export const DURATION_ACCURACY = 0.01;

/**
 * Item durations for p50/p95/max in constant memory, however many items a run has: a DDSketch
 * (log-scaled buckets) instead of every duration, so a run of millions of items keeps a few KB.
 * Percentiles are within `DURATION_ACCURACY` of the true value; the max is exact.
 */
export class DurationSketch {
  // 2,048 buckets at 1% span ratios of about 10^17 between the shortest and the longest
  // duration, so nothing is collapsed in practice; the limit only bounds the memory.
  readonly #sketch = new LogCollapsingLowestDenseDDSketch({
    relativeAccuracy: DURATION_ACCURACY,
    binLimit: 2048,
  });

  add(ms: number): void {
    this.#sketch.accept(Number.isFinite(ms) && ms > 0 ? ms : 0);
  }

  get count(): number {
    return this.#sketch.count;
  }

  /** The `p`-th percentile (0 to 100), within `DURATION_ACCURACY`; 0 for none. */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    // A bucket's value can pass the largest duration by up to the accuracy: never report that.
    return Math.min(this.#sketch.getValueAtQuantile(p / 100), this.#sketch.max);
  }

  get max(): number {
    return this.count === 0 ? 0 : this.#sketch.max;
  }
}
