import type { RunComparison } from '../score/compare-runs.js';
import type { ScorerComparison } from '../score/compare-scores.js';
import type { ReasonsByScorer } from '../score/read-scores.js';
import { changeBarsSvg } from './change-bars-svg.js';
import { escapeHtml } from './escape-html.js';
import { type ForestRow, forestPlotSvg } from './forest-plot-svg.js';
import { excerpt, formatEstimate, formatScore, formatSigned, items } from './format-values.js';
import { htmlPage } from './html-page.js';
import { threadHtml } from './inspector-link.js';
import type { ItemDigest } from './read-results-digest.js';

/** One side of the comparison, as the page names and links it. */
export interface ComparedRun {
  readonly runId: string;
  /** From `results.jsonl`: each item's thread. Absent when the folder has none. */
  readonly items?: ReadonlyMap<string, ItemDigest>;
  readonly reasons: ReasonsByScorer;
}

export interface ComparisonReportInput {
  readonly comparison: RunComparison;
  readonly runA: ComparedRun;
  readonly runB: ComparedRun;
  readonly inspectorUrl?: string;
}

/** Changed items listed per scorer (the chart shows every one). */
const CHANGED_LISTED = 100;
const REASON_LENGTH = 300;

type Verdict = 'better' | 'worse' | 'noise';

function verdictOf(s: ScorerComparison): { kind: Verdict; said: string } {
  if (s.n === 0) return { kind: 'noise', said: 'no paired items' };
  if (!s.difference.real) return { kind: 'noise', said: 'within noise' };
  return { kind: s.difference.mean! > 0 ? 'better' : 'worse', said: 'real' };
}

function scorersTable(comparison: RunComparison): string {
  const rows = comparison.scorers.map((s) => {
    const { kind, said } = verdictOf(s);
    return `<tr data-scorer="${escapeHtml(s.scorer)}"><td><code>${escapeHtml(s.scorer)}</code></td><td class="num">${s.n}</td><td class="num">${formatEstimate(s.a)}</td><td class="num">${formatEstimate(s.b)}</td><td class="num">${formatEstimate(s.difference, formatSigned)}</td><td class="verdict ${kind}">${said}</td></tr>`;
  });
  return `<table class="scorers"><tr><th>scorer</th><th class="num">n</th><th class="num">mean A [95% CI]</th><th class="num">mean B [95% CI]</th><th class="num">B − A [95% CI]</th><th></th></tr>${rows.join('')}</table>`;
}

function forestRows(comparison: RunComparison): ForestRow[] {
  return comparison.scorers.flatMap(({ scorer, difference }) =>
    difference.mean === undefined || difference.ci === undefined
      ? []
      : [
          {
            label: scorer,
            mean: difference.mean,
            lo: difference.ci.lo,
            hi: difference.ci.hi,
            real: difference.real,
          },
        ],
  );
}

function reasonCell(run: ComparedRun, scorer: string, itemId: string): string {
  const reason = run.reasons.get(scorer)?.get(itemId);
  return `<td class="text reason">${reason === undefined ? '' : escapeHtml(excerpt(reason, REASON_LENGTH))}</td>`;
}

function scorerSection(input: ComparisonReportInput, s: ScorerComparison): string {
  const { runA, runB, inspectorUrl } = input;
  const up = s.changed.filter((item) => item.difference > 0).length;
  const facts = [
    s.changed.length === 0
      ? `No item of ${items(s.n)} changed.`
      : `${s.changed.length} of ${items(s.n)} changed: ${up} up, ${s.changed.length - up} down.`,
  ];
  if (s.itemsOnlyInA.length !== 0 || s.itemsOnlyInB.length !== 0)
    facts.push(
      `${items(s.itemsOnlyInA.length)} scored only in A, ${s.itemsOnlyInB.length} only in B (in the means, not the difference).`,
    );
  if (s.changed.length === 0)
    return `<section class="scorer" data-scorer="${escapeHtml(s.scorer)}"><h2>${escapeHtml(s.scorer)}</h2><p>${facts.join(' ')}</p></section>`;
  const listed = s.changed.slice(0, CHANGED_LISTED);
  const rows = listed.map(
    (item) =>
      `<tr data-item="${escapeHtml(item.itemId)}"><td><code>${escapeHtml(item.itemId)}</code></td><td class="num">${formatScore(item.a)}</td><td class="num">${formatScore(item.b)}</td><td class="num verdict ${item.difference > 0 ? 'better' : 'worse'}">${formatSigned(item.difference)}</td>${reasonCell(runA, s.scorer, item.itemId)}${reasonCell(runB, s.scorer, item.itemId)}<td class="thread-a">${threadHtml(runA.items?.get(item.itemId)?.threadId, inspectorUrl)}</td><td class="thread-b">${threadHtml(runB.items?.get(item.itemId)?.threadId, inspectorUrl)}</td></tr>`,
  );
  const more =
    s.changed.length > listed.length
      ? `<p class="muted">… and ${s.changed.length - listed.length} more, in the chart above (<code>skein compare --json</code> lists every one).</p>`
      : '';
  return `<section class="scorer" data-scorer="${escapeHtml(s.scorer)}"><h2>${escapeHtml(s.scorer)}</h2><p>${facts.join(' ')}</p>
<p class="muted">B − A per changed item, most improved first.</p>
<div class="scroll">${changeBarsSvg(s.changed, s.scorer)}</div>
<h3>Changed items, largest change first</h3>
<table class="changed"><tr><th>item</th><th class="num">A</th><th class="num">B</th><th class="num">B − A</th><th>reason A</th><th>reason B</th><th>thread A</th><th>thread B</th></tr>${rows.join('')}</table>${more}</section>`;
}

/**
 * The comparison's page: per scorer the means and the paired difference with its interval, a
 * forest plot of the differences, then per scorer a bar per changed item and the changed items,
 * linked to their threads in both runs.
 */
export function comparisonReportHtml(input: ComparisonReportInput): string {
  const { comparison, runA, runB } = input;
  const forest = forestRows(comparison);
  const onlyIn = (run: string, scorers: readonly string[]) =>
    scorers.length === 0
      ? ''
      : `<p class="muted">Scorers only in ${run}, not compared: ${scorers.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ')}.</p>`;
  const torn = [comparison.runA, comparison.runB]
    .filter((run) => run.tornLine !== undefined)
    .map(
      (run) =>
        `<p class="muted">Line ${run.tornLine} of <code>${escapeHtml(run.file)}</code> has no newline (a write torn by a crash) and is left out.</p>`,
    )
    .join('');
  const body = `<header><h1>Run <code>${escapeHtml(runB.runId)}</code> against <code>${escapeHtml(runA.runId)}</code></h1>
<p class="meta">A <code>${escapeHtml(comparison.runA.folder)}</code> · B <code>${escapeHtml(comparison.runB.folder)}</code></p></header>
${torn}
<section id="scorers"><h2>Scorers</h2>
<p class="muted">Scores run from 0 (worst) to 1 (best). 95% percentile bootstrap intervals, ${comparison.resamples} resamples, seed ${comparison.seed}. B − A is over the n items both runs scored, and is real when its interval excludes zero.</p>
${comparison.scorers.length === 0 ? '<p>No scorer in both runs: nothing to compare.</p>' : scorersTable(comparison)}
${forest.length === 0 ? '' : `<div class="scroll">${forestPlotSvg(forest)}</div>`}
${onlyIn('A', comparison.scorersOnlyInA)}${onlyIn('B', comparison.scorersOnlyInB)}</section>
${comparison.scorers.map((s) => scorerSection(input, s)).join('\n')}`;
  return htmlPage(`Run ${runB.runId} against ${runA.runId}`, body);
}
