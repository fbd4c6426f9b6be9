import { describe, expect, it } from 'vitest';
import { forestPlotSvg } from './forest-plot-svg.js';

function attribute(svg: string, selector: RegExp): number[] {
  return [...svg.matchAll(selector)].map((m) => Number(m[1]));
}

describe('forestPlotSvg', () => {
  const rows = [
    { label: 'exact', mean: 0.2, lo: 0.1, hi: 0.3, real: true },
    { label: 'judge <b>', mean: -0.02, lo: -0.08, hi: 0.04, real: false },
    { label: 'tools', mean: -0.15, lo: -0.25, hi: -0.05, real: true },
  ];

  it('draws one interval per row, classed by what it says, against a zero line', () => {
    const svg = forestPlotSvg(rows);
    expect(svg.match(/<g class="interval /g)).toHaveLength(3);
    expect([...svg.matchAll(/<g class="interval (\w+)"/g)].map((m) => m[1])).toEqual([
      'better',
      'noise',
      'worse',
    ]);
    expect(svg.match(/<line class="zero"/g)).toHaveLength(1);
    expect(svg).toContain('judge &lt;b&gt;: B − A -0.020 [-0.080, +0.040], within noise');
    expect(svg).not.toContain('<b>');
  });

  it('puts zero in the middle and every interval inside an axis just wide enough', () => {
    const svg = forestPlotSvg(rows);
    // Reach 0.5 holds the widest end, 0.3: ticks at ±0.5 and ±0.25.
    expect(svg).toContain('>+0.500<');
    expect(svg).toContain('>-0.250<');
    const [zero] = attribute(svg, /<line class="zero" x1="([\d.]+)"/g);
    const ends = attribute(svg, /<line class="ci" x1="([\d.]+)"/g);
    expect(zero).toBe(160 + 330 / 2);
    expect(ends[0]).toBeGreaterThan(zero!);
    expect(ends[2]).toBeLessThan(zero!);
  });

  it('keeps an axis for intervals of no width at zero', () => {
    const svg = forestPlotSvg([{ label: 'same', mean: 0, lo: 0, hi: 0, real: false }]);
    expect(svg).toContain('>+0.010<');
    expect(svg).not.toContain('NaN');
  });
});
