import { escapeHtml } from './escape-html.js';
import { formatScore, formatSigned, items } from './format-values.js';
import { px } from './svg-number.js';

/** An item whose score changed from run A to run B. */
export interface ItemChange {
  readonly itemId: string;
  readonly a: number;
  readonly b: number;
  /** b − a */
  readonly difference: number;
}

const HEIGHT = 200;
const LEFT = 44;
const RIGHT = 12;
const TOP = 10;
const BOTTOM = 10;
/** The plot's width when bars are as narrow as they may be wide, and their widths. */
const PLOT = 560;
const MIN_BAR = 2;
const MAX_BAR = 28;

/** By code unit, the same on every machine. */
function byId(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The changed items of a scorer as an inline SVG: one bar per item (`rect.bar`, classed `up` or
 * `down`), from the most improved to the most worsened, rising or falling from a zero line on a
 * fixed scale of −1 to +1 (charts of two scorers read alike). Bars are at least 2 px wide: a long
 * list makes a wider chart, scrolled sideways, rather than bars too thin to see.
 */
export function changeBarsSvg(changes: readonly ItemChange[], label: string): string {
  const sorted = [...changes].sort(
    (x, y) => y.difference - x.difference || byId(x.itemId, y.itemId),
  );
  const bar = Math.min(MAX_BAR, Math.max(MIN_BAR, PLOT / Math.max(1, sorted.length)));
  const gap = bar >= 6 ? 1 : 0;
  const width = LEFT + Math.max(PLOT, sorted.length * bar) + RIGHT;
  const half = (HEIGHT - TOP - BOTTOM) / 2;
  const zero = TOP + half;
  const parts: string[] = [];
  for (const [value, y] of [
    ['+1', TOP],
    ['0', zero],
    ['−1', TOP + 2 * half],
  ] as const)
    parts.push(`<text class="tick" x="${LEFT - 6}" y="${y + 4}" text-anchor="end">${value}</text>`);
  sorted.forEach((change, i) => {
    // At least a pixel tall, so the smallest change still shows.
    const height = Math.max(1, Math.abs(change.difference) * half);
    const up = change.difference > 0;
    parts.push(
      `<rect class="bar ${up ? 'up' : 'down'}" data-item="${escapeHtml(change.itemId)}" x="${px(LEFT + i * bar + gap / 2)}" y="${px(up ? zero - height : zero)}" width="${px(bar - gap)}" height="${px(height)}"><title>${escapeHtml(change.itemId)}: ${formatScore(change.a)} → ${formatScore(change.b)} (${formatSigned(change.difference)})</title></rect>`,
    );
  });
  parts.push(`<line class="zero" x1="${LEFT}" y1="${zero}" x2="${width - RIGHT}" y2="${zero}"/>`);
  return `<svg class="chart changes" viewBox="0 0 ${px(width)} ${HEIGHT}" width="${px(width)}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(label)}: ${items(sorted.length)} changed, B − A">${parts.join('')}</svg>`;
}
