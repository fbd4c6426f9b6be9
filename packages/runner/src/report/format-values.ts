import type { MeanEstimate } from '../score/bootstrap.js';

// Numbers as the pages show them. Values read from a run's files may be anything a hand or a bug
// put there: a value that is not a finite number shows as a dash rather than breaking the page.

const DASH = '—';

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A score, 3 decimals. */
export function formatScore(value: unknown): string {
  return finite(value) ? value.toFixed(3) : DASH;
}

/** A difference, 3 decimals and its sign; one that rounds to zero shows as zero. */
export function formatSigned(value: unknown): string {
  if (!finite(value)) return DASH;
  const text = value.toFixed(3);
  if (Number(text) === 0) return '0.000';
  return value > 0 ? `+${text}` : text;
}

/** A mean and its interval: `0.750 [0.600, 0.900]`. */
export function formatEstimate(
  estimate: MeanEstimate,
  format: (value: number) => string = formatScore,
): string {
  if (estimate.mean === undefined || estimate.ci === undefined) return DASH;
  return `${format(estimate.mean)} [${format(estimate.ci.lo)}, ${format(estimate.ci.hi)}]`;
}

/** A count, with thousands separated. */
export function formatCount(value: unknown): string {
  return finite(value) ? value.toLocaleString('en-US') : DASH;
}

/** A duration: milliseconds below a second, seconds below ten minutes, then minutes. */
export function formatMs(value: unknown): string {
  if (!finite(value)) return DASH;
  if (value < 1000) return `${value.toFixed(0)} ms`;
  if (value < 600_000) return `${(value / 1000).toFixed(2)} s`;
  return `${(value / 60_000).toFixed(1)} min`;
}

/** `n item(s)`. */
export function items(count: number): string {
  return `${formatCount(count)} item${count === 1 ? '' : 's'}`;
}

/** A value as short text: a string as it is, anything else as JSON, cut to `max` characters. */
export function excerpt(value: unknown, max: number): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? '';
    } catch {
      text = String(value);
    }
  }
  // By code point, so a cut never splits a surrogate pair: 2·max + 2 code units hold more than
  // max code points whenever the text is longer than that.
  const points = [...text.slice(0, max * 2 + 2)];
  return points.length > max ? `${points.slice(0, max).join('')}…` : text;
}
