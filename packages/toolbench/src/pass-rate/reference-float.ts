// The float arithmetic of the reference's last two lines, step for step, so the figures are the
// reference's own doubles and print the same (an exact mean can print otherwise: the rounds
// 0.1, 0.2, 0.15, 0.4 have the exact mean 0.2125, printed 21.2 rounding half to even, but their
// doubles sum above 0.85 and Python prints 21.3).

/** Python's `sum(values)` of floats: left to right (CPython up to 3.11; 3.12 compensates). */
export function pythonSum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/**
 * numpy's pairwise summation (`pairwise_sum` in `numpy/core/src/umath/loops_utils.h.src`), as
 * `np.add.reduce` runs it on a contiguous float64 array: a plain loop under 8 values, 8
 * accumulators up to 128, halves (at multiples of 8) beyond. Checked against numpy 1.24.4 and
 * 2.4.6 on 20,000 arrays of round scores.
 */
export function numpySum(values: readonly number[], start = 0, n = values.length): number {
  if (n < 8) {
    let total = 0;
    for (let i = start; i < start + n; i++) total += values[i]!;
    return total;
  }
  if (n <= 128) {
    const r = values.slice(start, start + 8);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j]! += values[start + i + j]!;
    let total = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!));
    for (; i < n; i++) total += values[start + i]!;
    return total;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return numpySum(values, start, half) + numpySum(values, start + half, n - half);
}

/**
 * `np.std(values)` (ddof 0), as numpy's `_var` computes it: the mean by `numpySum` over n, the
 * squared deviations summed the same way over n, then the square root.
 */
export function numpyStd(values: readonly number[]): number {
  const mean = numpySum(values) / values.length;
  return Math.sqrt(numpySum(values.map((x) => (x - mean) * (x - mean))) / values.length);
}
