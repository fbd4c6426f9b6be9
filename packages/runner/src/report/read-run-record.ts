import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { RunnerError } from '../errors/runner-error.js';
import { RUN_FILE, SUMMARY_FILE } from '../output/run-files.js';
import type { RunSummary } from '../summary/run-summary.js';

/** What a report says a run is: its id, its workflow, its summary when it wrote one. */
export interface RunRecord {
  readonly folder: string;
  /** From `run.json`, else `summary.json`, else the folder's name. */
  readonly runId: string;
  readonly workflowId?: string;
  readonly summary?: RunSummary;
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw RunnerError.runFolder(path, 'could not be read', error);
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Reads `run.json` and `summary.json` of a run folder, changing nothing; either may be missing (a
 * folder holding only scores is a run to compare too). A `summary.json` that is not a summary (no
 * `items` or `tokens` object) is `RunnerError` (`RUN_FOLDER_INVALID`), and so is a folder that is
 * not one.
 */
export function readRunRecord(folder: string): RunRecord {
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw RunnerError.runFolder(folder, 'is not a folder');
  const runFile = join(folder, RUN_FILE);
  const run = existsSync(runFile) ? readJson(runFile) : undefined;
  const summaryFile = join(folder, SUMMARY_FILE);
  let summary: RunSummary | undefined;
  if (existsSync(summaryFile)) {
    const value = readJson(summaryFile);
    if (!isObject(value) || !isObject(value.items) || !isObject(value.tokens))
      throw RunnerError.runFolder(summaryFile, 'is not a run summary (no "items" or "tokens")');
    summary = value as unknown as RunSummary;
  }
  const record = isObject(run) ? run : {};
  const runId = text(record.runId) ?? text(summary?.runId) ?? (basename(resolve(folder)) || 'run');
  const workflowId = text(record.workflowId) ?? text(summary?.workflowId);
  return {
    folder,
    runId,
    ...(workflowId === undefined ? {} : { workflowId }),
    ...(summary === undefined ? {} : { summary }),
  };
}
