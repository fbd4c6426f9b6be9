import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RunnerError } from '../errors/runner-error.js';
import { readScores, SCORES_FILE } from '../score/read-scores.js';
import { readResultsDigest } from './read-results-digest.js';
import { readRunRecord } from './read-run-record.js';
import { checkReportOptions, type ReportOptions } from './report-options.js';
import { runReportHtml } from './run-report-html.js';
import { worstItems } from './worst-items.js';
import { writePage } from './write-page.js';

/** The run's page in its folder. */
export const RUN_REPORT_FILE = 'report.html';

/**
 * Writes `report.html` into a run folder and returns its path: the run's summary (from
 * `summary.json`, else counted from `results.jsonl`), and per scorer of `scores.jsonl` its mean
 * with a 95% bootstrap interval, a histogram of its scores and its worst items, linked to their
 * threads in the inspector when `inspectorUrl` is given. The page is one file that loads nothing
 * and runs no script: it opens offline, from `file://`. Only the page is written.
 *
 * Throws `InvalidArgumentError` for a bad `inspectorUrl`, and `RunnerError` for a folder that is
 * not a run's (none of `results.jsonl`, `summary.json`, `scores.jsonl`), a file of it that is not
 * what a run writes, or a page that cannot be written.
 */
export async function writeRunReport(folder: string, options: ReportOptions = {}): Promise<string> {
  checkReportOptions(options);
  const record = readRunRecord(folder);
  const scores = existsSync(join(folder, SCORES_FILE)) ? await readScores(folder) : undefined;
  // Outputs are kept only for the items the page lists.
  const listed = new Set<string>();
  for (const byItem of scores?.scores.values() ?? [])
    for (const { itemId } of worstItems(byItem)) listed.add(itemId);
  const results = await readResultsDigest(folder, (itemId) => listed.has(itemId));
  if (results === undefined && scores === undefined && record.summary === undefined)
    throw RunnerError.runFolder(
      folder,
      'holds no run: no results.jsonl, summary.json or scores.jsonl to report on',
    );
  const { seed, resamples, inspectorUrl } = options;
  const html = runReportHtml({
    record,
    ...(results === undefined ? {} : { results }),
    ...(scores === undefined ? {} : { scores }),
    ...(inspectorUrl === undefined ? {} : { inspectorUrl }),
    bootstrap: {
      ...(seed === undefined ? {} : { seed }),
      ...(resamples === undefined ? {} : { resamples }),
    },
  });
  return writePage(join(folder, RUN_REPORT_FILE), html);
}
