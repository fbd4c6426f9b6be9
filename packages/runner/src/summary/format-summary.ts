import { formatScores } from './format-scores.js';
import type { RunSummary } from './run-summary.js';

function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n');
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`;
}

/** The summary as a plain-text table for a terminal. */
export function formatSummary(summary: RunSummary): string {
  const { items, tokens } = summary;
  const rows: [string, string][] = [
    [
      'run',
      `${summary.runId} (${summary.workflowId})${summary.finished ? '' : ' — stopped early'}`,
    ],
    [
      'items',
      `${items.total} (${items.COMPLETED} completed, ${items.FAILED} failed, ${items.PAUSED} paused, ${items.INVALID} invalid${summary.resumed ? `; ${summary.resumed} from earlier runs` : ''})`,
    ],
    [
      'tokens',
      `${tokens.totalTokens} (${tokens.promptTokens} prompt, ${tokens.completionTokens} completion)`,
    ],
  ];
  if (summary.cost)
    rows.push(['cost', `${summary.cost.amount.toFixed(4)} (${summary.cost.model})`]);
  rows.push([
    'duration per item',
    `p50 ${ms(summary.durationMs.p50)}, p95 ${ms(summary.durationMs.p95)}, max ${ms(summary.durationMs.max)}`,
  ]);
  rows.push(['elapsed', ms(summary.elapsedMs)]);
  if (summary.rateLimits)
    rows.push([
      'rate limits',
      `${summary.rateLimits.requests} requests, ${summary.rateLimits.rateLimited} answered 429, ${ms(summary.rateLimits.waitedMs)} waited`,
    ]);
  formatScores(summary.scores ?? {}).forEach((line, i) => {
    rows.push([i === 0 ? 'scores' : '', line]);
  });
  summary.topErrors.forEach((error, i) => {
    rows.push([
      i === 0 ? 'top errors' : '',
      `${error.count} × ${error.code}: ${error.message.slice(0, 100)} (e.g. item ${error.itemId})`,
    ]);
  });
  return table(rows);
}
