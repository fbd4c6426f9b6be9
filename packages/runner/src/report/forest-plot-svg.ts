import { escapeHtml } from './escape-html.js';
import { excerpt, formatSigned } from './format-values.js';
import { px } from './svg-number.js';

/** One scorer's paired difference B − A with its interval. */
export interface ForestRow {
  readonly label: string;
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
  /** The interval excludes zero. */
  readonly real: boolean;
}

const WIDTH = 800;
const LABEL = 160;
const PLOT = 330;
const ROW = 30;
const TOP = 10;
const BOTTOM = 26;

/** The smallest of these that holds every interval: the axis is −reach to +reach. */
const REACHES = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1];

function reachOf(rows: readonly ForestRow[]): number {
  const widest = Math.max(0, ...rows.flatMap((row) => [Math.abs(row.lo), Math.abs(row.hi)]));
  return REACHES.find((reach) => widest <= reach) ?? 1;
}

/** How the row reads: better or worse when real, noise otherwise. */
function verdict(row: ForestRow): 'better' | 'worse' | 'noise' {
  if (!row.real) return 'noise';
  return row.mean > 0 ? 'better' : 'worse';
}

/**
 * A forest plot of paired differences, as an inline SVG: per row (`g.interval`, classed `better`,
 * `worse` or `noise`) the 95% interval as a bar with the mean as a dot, against a zero line
 * (`line.zero`); an interval that crosses the line is within noise. The axis is symmetric around
 * zero, as wide as the widest interval needs.
 */
export function forestPlotSvg(rows: readonly ForestRow[]): string {
  const reach = reachOf(rows);
  const x = (value: number) => LABEL + ((value + reach) / (2 * reach)) * PLOT;
  const height = TOP + rows.length * ROW + BOTTOM;
  const axis = TOP + rows.length * ROW;
  const parts: string[] = [];
  for (const tick of [-reach, -reach / 2, 0, reach / 2, reach])
    parts.push(
      `<line class="grid" x1="${px(x(tick))}" y1="${TOP}" x2="${px(x(tick))}" y2="${axis}"/>`,
      `<text class="tick" x="${px(x(tick))}" y="${axis + 16}" text-anchor="middle">${formatSigned(tick)}</text>`,
    );
  parts.push(`<line class="zero" x1="${px(x(0))}" y1="${TOP - 4}" x2="${px(x(0))}" y2="${axis}"/>`);
  rows.forEach((row, i) => {
    const y = TOP + i * ROW + ROW / 2;
    const kind = verdict(row);
    const said = kind === 'noise' ? 'within noise' : 'real';
    const value = `${formatSigned(row.mean)} [${formatSigned(row.lo)}, ${formatSigned(row.hi)}]`;
    parts.push(
      `<g class="interval ${kind}"><title>${escapeHtml(row.label)}: B − A ${value}, ${said}</title>`,
      `<text class="label" x="${LABEL - 10}" y="${y + 4}" text-anchor="end">${escapeHtml(excerpt(row.label, 22))}</text>`,
      `<line class="ci" x1="${px(x(row.lo))}" y1="${y}" x2="${px(x(row.hi))}" y2="${y}"/>`,
      `<line class="cap" x1="${px(x(row.lo))}" y1="${y - 6}" x2="${px(x(row.lo))}" y2="${y + 6}"/>`,
      `<line class="cap" x1="${px(x(row.hi))}" y1="${y - 6}" x2="${px(x(row.hi))}" y2="${y + 6}"/>`,
      `<circle class="mean" cx="${px(x(row.mean))}" cy="${y}" r="4.5"/>`,
      `<text class="value" x="${LABEL + PLOT + 12}" y="${y + 4}">${value} ${said}</text></g>`,
    );
  });
  return `<svg class="chart forest" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="B − A per scorer with 95% intervals">${parts.join('')}</svg>`;
}
