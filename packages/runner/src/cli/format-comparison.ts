import type { Interval, MeanEstimate } from '../score/bootstrap.js';
import type { RunComparison } from '../score/compare-runs.js';
import type { ScorerComparison } from '../score/compare-scores.js';

/** Changed items shown per scorer; `--json` lists every one. */
const CHANGED_SHOWN = 20;

function score(value: number): string {
  return value.toFixed(3);
}

function signed(value: number): string {
  const text = value.toFixed(3);
  // A difference that rounds to zero shows as one, whatever its sign.
  if (Number(text) === 0) return '0.000';
  return value > 0 ? `+${text}` : text;
}

function estimate(e: MeanEstimate, format: (value: number) => string): string {
  if (e.mean === undefined) return '—';
  const ci: Interval = e.ci!;
  return `${format(e.mean)} [${format(ci.lo)}, ${format(ci.hi)}]`;
}

/** Rows of cells as columns, each as wide as its widest cell. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) =>
    row
      .map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!)))
      .join('   ')
      .trimEnd(),
  );
}

function items(count: number): string {
  return `${count} item${count === 1 ? '' : 's'}`;
}

function changedLines(s: ScorerComparison): string[] {
  const lines: string[] = [];
  if (s.changed.length !== 0) {
    const up = s.changed.filter((item) => item.difference > 0).length;
    lines.push(
      `${s.scorer}: ${s.changed.length} of ${items(s.n)} changed (${up} up, ${s.changed.length - up} down), largest first`,
    );
    lines.push(
      ...columns(
        s.changed
          .slice(0, CHANGED_SHOWN)
          .map((item) => [
            `  ${item.itemId}`,
            `${score(item.a)} → ${score(item.b)}`,
            signed(item.difference),
          ]),
      ),
    );
    if (s.changed.length > CHANGED_SHOWN)
      lines.push(`  … and ${s.changed.length - CHANGED_SHOWN} more (--json lists every one)`);
  }
  if (s.itemsOnlyInA.length !== 0 || s.itemsOnlyInB.length !== 0)
    lines.push(
      `${s.scorer}: ${items(s.itemsOnlyInA.length)} scored only in A, ${s.itemsOnlyInB.length} only in B (in the means, not the difference)`,
    );
  return lines;
}

/** The comparison as plain text for a terminal: a row per scorer, then the items that changed. */
export function formatComparison(comparison: RunComparison): string {
  const lines = [
    `A: ${comparison.runA.folder}`,
    `B: ${comparison.runB.folder}`,
    `95% percentile bootstrap intervals, ${comparison.resamples} resamples, seed ${comparison.seed}`,
    '',
  ];
  if (comparison.scorers.length === 0) lines.push('no scorer in both runs: nothing to compare');
  else
    lines.push(
      ...columns([
        ['scorer', 'n', 'mean A [95% CI]', 'mean B [95% CI]', 'B − A [95% CI]', ''],
        ...comparison.scorers.map((s) => [
          s.scorer,
          String(s.n),
          estimate(s.a, score),
          estimate(s.b, score),
          estimate(s.difference, signed),
          s.n === 0 ? 'no paired items' : s.difference.real ? 'real' : 'within noise',
        ]),
      ]),
    );
  for (const [run, scorers] of [
    ['A', comparison.scorersOnlyInA],
    ['B', comparison.scorersOnlyInB],
  ] as const)
    if (scorers.length !== 0)
      lines.push(`scorers only in ${run}, not compared: ${scorers.join(', ')}`);
  for (const s of comparison.scorers) {
    const changed = changedLines(s);
    if (changed.length !== 0) lines.push('', ...changed);
  }
  return lines.join('\n');
}
