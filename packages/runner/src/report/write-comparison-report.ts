import { join } from 'node:path';
import { compareRuns, type RunComparison } from '../score/compare-runs.js';
import { readScores } from '../score/read-scores.js';
import { type ComparedRun, comparisonReportHtml } from './comparison-report-html.js';
import { readResultsDigest } from './read-results-digest.js';
import { readRunRecord } from './read-run-record.js';
import { checkReportOptions, type ReportOptions } from './report-options.js';
import { writePage } from './write-page.js';

/**
 * The comparison's page in run B's folder: `compare-<run id of A>.html`, a name no file of a run
 * takes. Characters other than letters, digits and `_ . @ -` become `_` (a run id may hold `:`).
 */
export function comparisonReportFile(runIdA: string): string {
  return `compare-${runIdA.replace(/[^A-Za-z0-9_.@-]/g, '_')}.html`;
}

async function comparedRun(folder: string): Promise<ComparedRun> {
  const { runId } = readRunRecord(folder);
  const { reasons } = await readScores(folder);
  const results = await readResultsDigest(folder);
  return { runId, reasons, ...(results === undefined ? {} : { items: results.items }) };
}

/**
 * Writes the page of a comparison already made (`compareRuns`) into run B's folder and returns
 * its path; reads each run's id, threads and score reasons for it. `skein compare --html` uses it
 * so the bootstrap runs once.
 */
export async function writeComparisonPage(
  comparison: RunComparison,
  options: Pick<ReportOptions, 'inspectorUrl'> = {},
): Promise<string> {
  checkReportOptions(options);
  const runA = await comparedRun(comparison.runA.folder);
  const runB = await comparedRun(comparison.runB.folder);
  const html = comparisonReportHtml({
    comparison,
    runA,
    runB,
    ...(options.inspectorUrl === undefined ? {} : { inspectorUrl: options.inspectorUrl }),
  });
  return writePage(join(comparison.runB.folder, comparisonReportFile(runA.runId)), html);
}

/**
 * Compares the scores of run A with run B (as `skein compare` does) and writes the page into run
 * B's folder, as `compare-<run id of A>.html`; returns its path. Per scorer: both means and the
 * paired difference with their 95% intervals, a forest plot of the differences, a bar per changed
 * item and the changed items, linked to their threads in both runs when `inspectorUrl` is given.
 * The page loads nothing and runs no script: it opens offline, from `file://`.
 *
 * Throws `InvalidArgumentError` for a bad `inspectorUrl`, and `RunnerError` for a folder without
 * `scores.jsonl`, a bad line, or a page that cannot be written.
 */
export async function writeComparisonReport(
  folderA: string,
  folderB: string,
  options: ReportOptions = {},
): Promise<string> {
  checkReportOptions(options);
  const { seed, resamples } = options;
  const comparison = await compareRuns(folderA, folderB, {
    ...(seed === undefined ? {} : { seed }),
    ...(resamples === undefined ? {} : { resamples }),
  });
  return writeComparisonPage(comparison, options);
}
