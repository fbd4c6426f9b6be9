import { describe, expect, it } from 'vitest';
import { binScores, histogramSvg } from './histogram-svg.js';

describe('binScores', () => {
  it('counts scores per tenth, closed below, with 1 in the last tenth', () => {
    expect(binScores([0, 0.05, 0.1, 0.3, 0.7, 0.99, 1, 1])).toEqual([2, 1, 0, 1, 0, 0, 0, 1, 0, 3]);
  });

  it('puts k/10 in bin k for every k, whatever the rounding of k/10 · 10', () => {
    const tenths = Array.from({ length: 10 }, (_, k) => Number(`0.${k}`));
    expect(binScores(tenths)).toEqual(new Array(10).fill(1));
    expect(binScores([0.1 * 3, 0.7, 0.6])).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0, 0]);
  });
});

describe('histogramSvg', () => {
  it('draws ten bars, empty ones included, each with its count and range in a tooltip', () => {
    const svg = histogramSvg([0, 1, 1, 0.55], 'exact <scores>');
    expect(svg.match(/<rect class="bar"/g)).toHaveLength(10);
    expect([...svg.matchAll(/data-count="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([
      1, 0, 0, 0, 0, 1, 0, 0, 0, 2,
    ]);
    expect(svg).toContain('<title>[0.9, 1.0]: 2 items</title>');
    expect(svg).toContain('<title>[0.5, 0.6): 1 item</title>');
    expect(svg).toContain('aria-label="exact &lt;scores&gt;"');
  });

  it('draws an empty histogram for no scores', () => {
    const svg = histogramSvg([], 'none');
    expect(svg.match(/<rect class="bar" data-count="0"/g)).toHaveLength(10);
  });
});
