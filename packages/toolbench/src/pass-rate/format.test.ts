import { describe, expect, it } from 'vitest';
import { formatPercent, formatSolveRate } from './format.js';

describe('formatPercent', () => {
  // Expected strings are Python 3's f"{x * 100:.1f}" of the same doubles.
  it.each([
    [2 / 3, '66.7'],
    [0.1225, '12.2'], // 12.25 exactly: Python rounds the tie to even, toFixed would say 12.3
    [0.0025, '0.2'], // 0.25 exactly, the same
    [0.0075, '0.8'],
    [0.125, '12.5'],
    [0.00125, '0.1'],
    [1 / 3, '33.3'],
    [0.000625, '0.1'],
    [0.41625, '41.6'],
    [1, '100.0'],
    [0, '0.0'],
  ])('%d → %s', (share, text) => {
    expect(formatPercent(share)).toBe(text);
  });

  it('writes a table cell', () => {
    expect(formatSolveRate({ solveRate: 0.522, std: 0.011 })).toBe('52.2±1.1');
  });
});
