import { type BootstrapOptions, bootstrapMean } from '../score/bootstrap.js';
import type { RunScores } from '../score/read-scores.js';
import type { RunSummary } from '../summary/run-summary.js';
import { escapeHtml } from './escape-html.js';
import {
  excerpt,
  formatCount,
  formatEstimate,
  formatMs,
  formatScore,
  items,
} from './format-values.js';
import { histogramSvg } from './histogram-svg.js';
import { htmlPage } from './html-page.js';
import { threadHtml } from './inspector-link.js';
import type { ResultsDigest, ResultsTally } from './read-results-digest.js';
import type { RunRecord } from './read-run-record.js';
import { worstItems } from './worst-items.js';

/** What the run's page is made of: all read already, so building it reads nothing. */
export interface RunReportInput {
  readonly record: RunRecord;
  readonly results?: ResultsDigest;
  readonly scores?: RunScores;
  readonly inspectorUrl?: string;
  readonly bootstrap?: BootstrapOptions;
}

/** Characters of a reason shown. */
const REASON_LENGTH = 600;

const text = (value: unknown) => escapeHtml(String(value));

function row(label: string, value: string): string {
  return `<tr><th>${escapeHtml(label)}</th><td>${value}</td></tr>`;
}

function tornNote(file: string, line: number | undefined): string {
  return line === undefined
    ? ''
    : `<p class="muted">Line ${line} of <code>${escapeHtml(file)}</code> has no newline (a write torn by a crash) and is left out.</p>`;
}

/** The run's counts, tokens and durations, from `summary.json` or else counted from the results. */
function summarySection(summary: RunSummary | undefined, tally: ResultsTally | undefined): string {
  const facts: Partial<RunSummary> | ResultsTally | undefined = summary ?? tally;
  if (facts === undefined)
    return '<section id="summary"><h2>Summary</h2><p class="muted">This folder has no summary.json and no results.jsonl.</p></section>';
  const source = summary
    ? 'From <code>summary.json</code>.'
    : 'Counted from <code>results.jsonl</code> (the folder has no <code>summary.json</code>).';
  const { items: counts, tokens, durationMs } = facts;
  const rows = [
    row(
      'items',
      `<span data-testid="items-total">${formatCount(counts?.total)}</span> (${formatCount(counts?.COMPLETED)} completed, ${formatCount(counts?.FAILED)} failed, ${formatCount(counts?.PAUSED)} paused, ${formatCount(counts?.INVALID)} invalid)`,
    ),
    row(
      'tokens',
      `${formatCount(tokens?.totalTokens)} (${formatCount(tokens?.promptTokens)} prompt, ${formatCount(tokens?.completionTokens)} completion)`,
    ),
  ];
  if (summary?.cost)
    rows.push(
      row(
        'cost',
        `${Number.isFinite(summary.cost.amount) ? summary.cost.amount.toFixed(4) : '—'} (${text(summary.cost.model)})`,
      ),
    );
  if (durationMs)
    rows.push(
      row(
        'duration per item',
        `p50 ${formatMs(durationMs.p50)}, p95 ${formatMs(durationMs.p95)}, max ${formatMs(durationMs.max)}`,
      ),
    );
  if (summary) {
    rows.push(row('elapsed', formatMs(summary.elapsedMs)));
    if (summary.finished === false) rows.push(row('finished', 'no: stopped early'));
  }
  const errors = Array.isArray(summary?.topErrors) ? summary.topErrors : [];
  const errorTable =
    errors.length === 0
      ? ''
      : `<h3>Top errors</h3><table class="errors"><tr><th class="num">count</th><th>code</th><th>message</th><th>e.g. item</th></tr>${errors
          .map(
            (e) =>
              `<tr><td class="num">${formatCount(e.count)}</td><td><code>${text(e.code)}</code></td><td class="text">${escapeHtml(excerpt(e.message, REASON_LENGTH))}</td><td><code>${text(e.itemId)}</code></td></tr>`,
          )
          .join('')}</table>`;
  return `<section id="summary"><h2>Summary</h2><p class="muted">${source}</p><table class="facts">${rows.join('')}</table>${errorTable}</section>`;
}

function scorerSection(input: RunReportInput, scorer: string): string {
  const scores = input.scores!.scores.get(scorer)!;
  const reasons = input.scores!.reasons.get(scorer);
  const estimate = bootstrapMean(
    // Sorted ids, as `skein compare` takes them: the same interval for the same scores.
    [...scores.keys()].sort().map((id) => scores.get(id)!),
    input.bootstrap,
  );
  const worst = worstItems(scores);
  const results = input.results?.items;
  const table =
    worst.length === 0
      ? '<p class="muted">Every item scored 1.</p>'
      : `<table class="worst"><tr><th class="num">#</th><th>item</th><th class="num">score</th><th>reason</th><th>status</th><th>output</th><th>thread</th></tr>${worst
          .map(({ itemId, score }, i) => {
            const result = results?.get(itemId);
            const reason = reasons?.get(itemId);
            return `<tr data-item="${escapeHtml(itemId)}"><td class="num">${i + 1}</td><td><code>${escapeHtml(itemId)}</code></td><td class="num">${formatScore(score)}</td><td class="text reason">${reason === undefined ? '' : escapeHtml(excerpt(reason, REASON_LENGTH))}</td><td>${result ? escapeHtml(result.status) : '—'}</td><td class="text output">${escapeHtml(result?.excerpt ?? '')}</td><td>${threadHtml(result?.threadId, input.inspectorUrl)}</td></tr>`;
          })
          .join('')}</table>`;
  const below = [...scores.values()].filter((score) => score < 1).length;
  return `<section class="scorer" data-scorer="${escapeHtml(scorer)}"><h3>${escapeHtml(scorer)}</h3>
<p>Mean <strong>${formatEstimate(estimate)}</strong> over ${items(scores.size)}; ${items(below)} below 1.</p>
<div class="scroll">${histogramSvg(scores.values(), `${scorer}: scores of ${items(scores.size)}`)}</div>
<h3>Worst items</h3>${table}</section>`;
}

function scoresSection(input: RunReportInput): string {
  if (input.scores === undefined)
    return '<section id="scores"><h2>Scores</h2><p class="muted">This folder has no scores.jsonl: score the run, then write the report again.</p></section>';
  const scorers = [...input.scores.scores.keys()].sort();
  if (scorers.length === 0)
    return '<section id="scores"><h2>Scores</h2><p class="muted">scores.jsonl holds no score.</p></section>';
  return `<section id="scores"><h2>Scores</h2>${tornNote('scores.jsonl', input.scores.tornLine)}
<p class="muted">Scores run from 0 (worst) to 1 (best); means with 95% percentile bootstrap intervals.</p>
${scorers.map((scorer) => scorerSection(input, scorer)).join('\n')}</section>`;
}

/** The run's page: its summary, then per scorer its mean, a histogram and its worst items. */
export function runReportHtml(input: RunReportInput): string {
  const { record } = input;
  const meta = [
    record.workflowId === undefined
      ? undefined
      : `workflow <code>${escapeHtml(record.workflowId)}</code>`,
    `folder <code>${escapeHtml(record.folder)}</code>`,
  ].filter((part) => part !== undefined);
  const body = `<header><h1>Run <code>${escapeHtml(record.runId)}</code></h1><p class="meta">${meta.join(' · ')}</p></header>
${tornNote('results.jsonl', input.results?.tornLine)}
${summarySection(record.summary, input.results?.tally)}
${scoresSection(input)}`;
  return htmlPage(`Run ${record.runId}`, body);
}
