import { seededRandom } from './seeded-random.js';

/** A 95% confidence interval. */
export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

export interface BootstrapOptions {
  /** Seeds the resampling: the same seed and values give the same interval. Default 1. */
  readonly seed?: number;
  /** Resamples drawn. Default 10,000. */
  readonly resamples?: number;
}

/** A mean and its interval; both undefined for no values. */
export interface MeanEstimate {
  readonly n: number;
  readonly mean?: number;
  readonly ci?: Interval;
}

/** The mean of B − A over paired items, and whether its interval says it is more than noise. */
export interface PairedDifference extends MeanEstimate {
  /** The interval excludes zero, from at least 2 items. */
  readonly real: boolean;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_RESAMPLES = 10_000;

function meanOf(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

/**
 * The 95% percentile interval of sorted resample means: the (R + 1)·2.5%-th smallest and as many
 * from the top (the smallest and largest below 79 resamples). The upper cut mirrors the lower one,
 * so negating every value mirrors the interval exactly.
 */
export function percentileInterval(sortedMeans: ArrayLike<number>): Interval {
  const resamples = sortedMeans.length;
  // Integer arithmetic for 2.5% = 1/40, so no rounding moves the cut.
  const k = Math.max(0, Math.floor((resamples + 1) / 40) - 1);
  return { lo: sortedMeans[k]!, hi: sortedMeans[resamples - 1 - k]! };
}

/** The percentile bootstrap: `resamples` means of n values drawn with replacement. */
function bootstrapInterval(values: ArrayLike<number>, seed: number, resamples: number): Interval {
  const n = values.length;
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  return percentileInterval(means.sort());
}

/**
 * The mean of `values` with its 95% percentile-bootstrap interval: none for no values, and a
 * zero-width one for a single value (every resample is that value).
 */
export function bootstrapMean(
  values: readonly number[],
  options: BootstrapOptions = {},
): MeanEstimate {
  const n = values.length;
  if (n === 0) return { n };
  const { seed = DEFAULT_SEED, resamples = DEFAULT_RESAMPLES } = options;
  return { n, mean: meanOf(values), ci: bootstrapInterval(values, seed, resamples) };
}

/**
 * The paired difference B − A over items both runs scored: `a[i]` and `b[i]` are one item's
 * scores. Resampling items (not the two runs separately) keeps each item's pair together, so an
 * item that is hard for both runs does not widen the interval. The difference is `real` when its
 * interval excludes zero; one item never is, since it shows no spread to measure noise by.
 */
export function bootstrapPairedDifference(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions = {},
): PairedDifference {
  if (a.length !== b.length)
    throw new RangeError(`paired scores differ in length: ${a.length} and ${b.length}`);
  const differences = b.map((score, i) => score - a[i]!);
  const estimate = bootstrapMean(differences, options);
  const { ci } = estimate;
  const real = estimate.n >= 2 && ci !== undefined && (ci.lo > 0 || ci.hi < 0);
  return { ...estimate, real };
}
