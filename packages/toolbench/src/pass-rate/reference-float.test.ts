import { describe, expect, it } from 'vitest';
import { numpyStd, numpySum, pythonSum } from './reference-float.js';

// Expected values are numpy's (1.24.4 and 2.4.6 agree) and CPython 3.11's, for the same doubles.
describe('reference float arithmetic', () => {
  it.each([
    [10, 6, 6.6000000000000005, 6.599999999999999, 0.4862098312457287],
    [20, 2, 14.200000000000001, 14.199999999999998, 0.5038849074937649],
    [130, 1, 100.7, 100.69999999999999, 0.4848967437207698],
    [300, 1, 236.7, 236.69999999999993, 0.48789923823128345],
  ])('sums %i values ((i × %i) mod 17) / 10 as np.sum and sum() do', (n, k, np, py, std) => {
    const values = Array.from({ length: n }, (_, i) => ((i * k) % 17) / 10);
    expect(numpySum(values)).toBe(np);
    expect(pythonSum(values)).toBe(py);
    expect(numpyStd(values)).toBe(std);
  });

  it('gives np.std of round scores', () => {
    expect(numpyStd([0.3, 0.2, 0.3])).toBe(0.04714045207910316);
    expect(numpyStd([2 / 3, 2 / 3, 2 / 3, 0])).toBe(0.28867513459481287);
    expect(numpyStd([0.5])).toBe(0);
  });

  it('sums as Python does where the exact mean would print otherwise', () => {
    // Exact mean 0.2125 (printed 21.2); Python's doubles give 0.21250000000000002 (printed 21.3).
    expect(pythonSum([0.1, 0.2, 0.15, 0.4]) / 4).toBe(0.21250000000000002);
  });
});
