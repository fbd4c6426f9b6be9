import { escapeHtml } from './escape-html.js';
import { items } from './format-values.js';
import { px } from './svg-number.js';

/** Bins of the score histogram: tenths of [0, 1]. */
const HISTOGRAM_BINS = 10;

/** Counts per bin of width 1/bins over [0, 1], each closed below; a score of 1 is in the last. */
export function binScores(scores: Iterable<number>, bins = HISTOGRAM_BINS): number[] {
  const counts = new Array<number>(bins).fill(0);
  // The nudge puts a score written as 0.3 in bin 3 even when 0.3 · 10 rounds just below 3.
  for (const score of scores) counts[Math.min(bins - 1, Math.floor(score * bins + 1e-9))]!++;
  return counts;
}

const WIDTH = 600;
const HEIGHT = 180;
const LEFT = 44;
const RIGHT = 12;
const TOP = 16;
const BOTTOM = 24;

function binLabel(bin: number, bins: number): string {
  const lo = (bin / bins).toFixed(1);
  const hi = ((bin + 1) / bins).toFixed(1);
  return bin === bins - 1 ? `[${lo}, ${hi}]` : `[${lo}, ${hi})`;
}

/**
 * How a scorer's scores spread over [0, 1], as an inline SVG: one bar per tenth (`rect.bar`, an
 * empty tenth a bar of no height), its count above it and in its tooltip.
 */
export function histogramSvg(scores: Iterable<number>, label: string): string {
  const counts = binScores(scores);
  const bins = counts.length;
  const most = Math.max(1, ...counts);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / bins;
  const base = TOP + plotHeight;
  const parts: string[] = [];
  parts.push(
    `<line class="axis" x1="${LEFT}" y1="${base}" x2="${WIDTH - RIGHT}" y2="${base}"/>`,
    `<text class="tick" x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${most}</text>`,
    `<text class="tick" x="${LEFT - 6}" y="${base}" text-anchor="end">0</text>`,
  );
  for (let edge = 0; edge <= bins; edge++)
    parts.push(
      `<text class="tick" x="${px(LEFT + edge * slot)}" y="${HEIGHT - 6}" text-anchor="middle">${(edge / bins).toFixed(1)}</text>`,
    );
  counts.forEach((count, bin) => {
    const height = (count / most) * plotHeight;
    const x = LEFT + bin * slot + 1;
    parts.push(
      `<rect class="bar" data-count="${count}" x="${px(x)}" y="${px(base - height)}" width="${px(slot - 2)}" height="${px(height)}"><title>${binLabel(bin, bins)}: ${items(count)}</title></rect>`,
    );
    if (count !== 0)
      parts.push(
        `<text class="count" x="${px(x + (slot - 2) / 2)}" y="${px(base - height - 3)}" text-anchor="middle">${count}</text>`,
      );
  });
  return `<svg class="chart histogram" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(label)}">${parts.join('')}</svg>`;
}
