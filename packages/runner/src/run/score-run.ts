import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SkeinEngine } from '@skein/core';
import { invalidOption } from '../errors/invalid-option.js';
import { RunnerError } from '../errors/runner-error.js';
import { datasetEntries } from '../input/dataset-entries.js';
import type { DatasetInput, ItemIdOption } from '../input/dataset-input.js';
import type { ItemResult } from '../output/item-result.js';
import { readResults } from '../output/read-results.js';
import { RESULTS_FILE, SUMMARY_FILE } from '../output/run-files.js';
import type { ScorerSummary } from '../score/score-book.js';
import { checkScorers, checkScoreTimeout, Scoring, type ScoringOptions } from '../score/scoring.js';
import { checkRunFolder, recordedRunId } from './run-folder.js';

export interface ScoreRunOptions extends ScoringOptions {
  /** The engine whose store holds the run's threads (read with `engine.getThread`). */
  readonly engine: SkeinEngine;
  /** The run's input, for each item's dataset entry (what scorers compare against). */
  readonly input: DatasetInput;
  /** How the run found item ids (as `runDataset`'s `itemId`). */
  readonly itemId?: ItemIdOption;
  /** The run folder. */
  readonly output: string;
  /** The run (default the one its `run.json` records). */
  readonly runId?: string;
  /** Items scored at once (default 8). */
  readonly concurrency?: number;
  /** Stops the scoring: scores being made are dropped (and made next time). */
  readonly signal?: AbortSignal;
}

export interface ScoreRunSummary {
  readonly runId: string;
  /** Finished items some scorer had no score for when scoring began. */
  readonly pending: number;
  /** Of those, the items scored now (each scorer gave a line, or an error line). */
  readonly scored: number;
  /** Of those, the items the input does not hold: not scored (their dataset entry is unknown). */
  readonly notInInput: number;
  /** False when the signal stopped it. */
  readonly finished: boolean;
  readonly scores: Readonly<Record<string, ScorerSummary>>;
  readonly elapsedMs: number;
}

/** The run's `summary.json`, its `scores` brought up to date; left as it is if unreadable. */
function updateSummaryFile(folder: string, scores: ScoreRunSummary['scores']): void {
  const path = join(folder, SUMMARY_FILE);
  try {
    const summary = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    if (typeof summary !== 'object' || summary === null || Array.isArray(summary)) return;
    writeFileSync(path, `${JSON.stringify({ ...summary, scores }, null, 2)}\n`);
  } catch {
    // No summary yet (a run not finished): the run writes one with its scores when it ends.
  }
}

/**
 * Scores the finished items of a run folder that lack a score of some scorer (`skein score`):
 * every result of `results.jsonl` but the invalid ones, its thread read from the engine's store
 * and its dataset entry from `input`. Each (item, scorer) is written to `scores.jsonl` once, as a
 * run with scorers writes it, so this can follow a run without scorers, add a scorer to a scored
 * run, or go on after a crash or Ctrl-C. It only reads `results.jsonl`; do not run it on a folder
 * a run is writing to, whose scores the run would also write.
 */
export async function scoreRun(options: ScoreRunOptions): Promise<ScoreRunSummary> {
  const started = performance.now();
  const scorers = checkScorers(options.scorers);
  if (scorers.length === 0) throw invalidOption('scorers', 'must name at least one scorer');
  checkScoreTimeout(options.scoreTimeoutMs);
  if (typeof options.engine?.getThread !== 'function')
    throw invalidOption('engine', 'must be a SkeinEngine');
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 10_000)
    throw invalidOption(
      'concurrency',
      `must be an integer from 1 to 10,000, got ${String(concurrency)}`,
    );
  const folder = options.output;
  const runId = options.runId ?? recordedRunId(folder);
  if (runId === undefined || checkRunFolder(folder, runId).state === 'new')
    throw RunnerError.runFolder(folder, 'holds no run (no run.json): run it first');

  const signal = options.signal;
  const scoring = await Scoring.open(folder, runId, scorers, { ...options, signal });
  const unscored = new Map<string, ItemResult>();
  let scored = 0;
  let pending = 0;
  try {
    await readResults(
      join(folder, RESULTS_FILE),
      (result) => {
        if (result.status !== 'INVALID' && scoring.lacksScores(result.itemId))
          unscored.set(result.itemId, result);
      },
      { runId, folder, readOnly: true },
    );
    pending = unscored.size;
    const entries = datasetEntries(options.input, options.itemId);
    const worker = async (): Promise<void> => {
      while (unscored.size > 0 && !signal?.aborted) {
        scoring.check();
        const next = await entries.next();
        if (next.done) return;
        if (next.value.kind !== 'item') continue;
        const { id, value } = next.value.item;
        const result = unscored.get(id);
        if (!result) continue;
        unscored.delete(id);
        await scoring.scoreStored(options.engine, value, result);
        if (!signal?.aborted) scored++;
      }
    };
    try {
      await Promise.all(Array.from({ length: concurrency }, worker));
    } finally {
      await entries.return(undefined);
    }
  } finally {
    scoring.close();
  }
  const scores = scoring.summary();
  updateSummaryFile(folder, scores);
  return {
    runId,
    pending,
    scored,
    notInInput: signal?.aborted ? 0 : unscored.size,
    finished: !signal?.aborted,
    scores,
    elapsedMs: performance.now() - started,
  };
}
