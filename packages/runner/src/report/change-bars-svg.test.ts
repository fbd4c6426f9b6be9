import { describe, expect, it } from 'vitest';
import { changeBarsSvg, type ItemChange } from './change-bars-svg.js';

const change = (itemId: string, a: number, b: number): ItemChange => ({
  itemId,
  a,
  b,
  difference: b - a,
});

describe('changeBarsSvg', () => {
  it('draws a bar per item, most improved first, rising for better and falling for worse', () => {
    const svg = changeBarsSvg(
      [change('q1', 1, 0), change('q2', 0, 0.5), change('q3', 0, 1), change('q4', 0.5, 0.25)],
      'exact',
    );
    expect(
      [...svg.matchAll(/<rect class="bar (up|down)" data-item="(\w+)"/g)].map(
        (m) => `${m[2]} ${m[1]}`,
      ),
    ).toEqual(['q3 up', 'q2 up', 'q4 down', 'q1 down']);
    expect(svg).toContain('<title>q4: 0.500 → 0.250 (-0.250)</title>');
    expect(svg).toContain('aria-label="exact: 4 items changed, B − A"');
  });

  it('escapes item ids in attributes and tooltips', () => {
    const svg = changeBarsSvg([change('"><script>x</script>', 0, 1)], 'exact');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('data-item="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });

  it('keeps bars at least 2 px wide, widening the chart for a long list', () => {
    const many = Array.from({ length: 1000 }, (_, i) => change(`q${i}`, 0, (i % 9) / 10 + 0.1));
    const svg = changeBarsSvg(many, 'exact');
    expect(svg.match(/<rect class="bar/g)).toHaveLength(1000);
    expect(svg).toContain('width="2"');
    expect(svg).toMatch(/viewBox="0 0 2056 200"/);
  });
});
