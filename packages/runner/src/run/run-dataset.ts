import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SkeinEngine } from '@skein/core';
import { invalidOption } from '../errors/invalid-option.js';
import type { Exporter } from '../export/exporter.js';
import { fineTuningExporter } from '../export/fine-tuning-exporter.js';
import { toolBenchExporter } from '../export/toolbench-exporter.js';
import { datasetEntries } from '../input/dataset-entries.js';
import type { DatasetEntry } from '../input/dataset-input.js';
import { countJsonlLines } from '../input/read-jsonl.js';
import { CountedBudget } from '../limits/counted-budget.js';
import { limitModel } from '../limits/limit-model.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { type ItemResult, threadIdOf, ZERO_USAGE } from '../output/item-result.js';
import { readResults } from '../output/read-results.js';
import { RESULTS_FILE, SUMMARY_FILE } from '../output/run-files.js';
import { RunWriter } from '../output/run-writer.js';
import { checkScorers, checkScoreTimeout, Scoring } from '../score/scoring.js';
import type { RunSummary } from '../summary/run-summary.js';
import { SummaryBuilder } from '../summary/summary-builder.js';
import { checkOptions } from './check-options.js';
import { checkRunFolder, claimRunFolder } from './run-folder.js';
import { type ItemOutcome, runItem } from './run-item.js';
import type { RunDatasetOptions, RunProgress } from './run-options.js';

function exportersOf(options: RunDatasetOptions): Exporter[] {
  const exporters: Exporter[] = [];
  const fineTuning = options.exports?.fineTuning;
  if (fineTuning) exporters.push(fineTuningExporter(fineTuning === true ? {} : fineTuning));
  if (options.exports?.toolBench) exporters.push(toolBenchExporter(options.exports.toolBench));
  const files = exporters.flatMap((e) => e.files);
  const twice = files.find((file, i) => files.indexOf(file) !== i);
  if (twice !== undefined)
    throw invalidOption('exports', `two exports would write to the same file, ${twice}`);
  return exporters;
}

/**
 * An engine without the workflow would fail every item, each then recorded as finished and
 * skipped by every later run of the same id: refused before the folder is touched.
 */
function checkWorkflow(engine: SkeinEngine, workflowId: string): void {
  const registry = (engine as Partial<SkeinEngine>).workflows;
  if (typeof registry?.has === 'function' && !registry.has(workflowId))
    throw invalidOption('workflowId', `"${workflowId}" is not registered in the engine`);
}

function totalOf(
  input: RunDatasetOptions['input'],
): Promise<number | undefined> | number | undefined {
  if (typeof input === 'string') return countJsonlLines(input);
  return Array.isArray(input) ? input.length : undefined;
}

/** Ids of the run's threads the store holds, so new items skip a lookup. */
async function storedThreads(
  engine: SkeinEngine,
  options: RunDatasetOptions,
): Promise<Set<string>> {
  const store = options.store ?? engine.store;
  if (!store) return new Set();
  const prefix = threadIdOf(options.runId, '');
  return new Set(
    (await store.listThreads()).map((t) => t.threadId).filter((id) => id.startsWith(prefix)),
  );
}

// Without exporters, every item's export lines are this one empty map.
const NO_LINES: ReadonlyMap<string, readonly string[]> = new Map();

/**
 * Runs a workflow over every item of a dataset, `concurrency` at a time, each item in its own
 * thread, streaming results and exports into the run folder as items finish. The folder must be
 * new, empty, or this run's own (its `run.json` names `runId`): anything else is refused without
 * a file changed. Running it again with the same `runId` and folder skips finished items and
 * picks unfinished threads up from their checkpoints: every item is in every file once. Resolves
 * to the run's summary (also written to `summary.json`); only bad options (refused before
 * anything is written) or an unusable run folder reject.
 */
export async function runDataset(options: RunDatasetOptions): Promise<RunSummary> {
  const concurrency = checkOptions(options);
  const scorers = checkScorers(options.scorers);
  checkScoreTimeout(options.scoreTimeoutMs);
  const started = performance.now();
  const folder = options.output;
  const exporters = exportersOf(options);
  const exportFiles = exporters.flatMap((e) => e.files);
  // Refused before the engine is built; taken (claimRunFolder) only once it is.
  checkRunFolder(folder, options.runId, exportFiles);
  const budget =
    options.limiter ??
    (options.rpm !== undefined || options.tpm !== undefined
      ? new RateLimiter({
          ...(options.rpm === undefined ? {} : { rpm: options.rpm }),
          ...(options.tpm === undefined ? {} : { tpm: options.tpm }),
        })
      : undefined);
  // Counted here, so the summary holds this run's requests whoever else shares the budget.
  const limiter = budget ? new CountedBudget(budget) : undefined;
  const engine =
    typeof options.engine === 'function'
      ? await options.engine({
          runId: options.runId,
          limitModel: (llm) => (limiter ? limitModel(llm, limiter, options.limitOptions) : llm),
        })
      : options.engine;
  checkWorkflow(engine, options.workflowId);
  claimRunFolder(folder, options.runId, options.workflowId, exportFiles);

  const signal = options.signal;
  // Read before the results, so each result kept can be told whether it lacks a score.
  const scoring =
    scorers.length === 0
      ? undefined
      : await Scoring.open(folder, options.runId, scorers, { ...options, signal });
  const summary = new SummaryBuilder();
  const finished = new Set<string>();
  // Results of earlier processes some scorer has no score for: scored when their item comes.
  const unscored = new Map<string, ItemResult>();
  let previous: Awaited<ReturnType<typeof readResults>>;
  let stored: Set<string>;
  let total: number | undefined;
  let writer: RunWriter;
  try {
    previous = await readResults(
      join(folder, RESULTS_FILE),
      (result) => {
        finished.add(result.itemId);
        summary.add(result, true);
        if (scoring && result.status !== 'INVALID' && scoring.lacksScores(result.itemId))
          unscored.set(result.itemId, result);
      },
      { runId: options.runId, folder, exportFiles },
    );
    stored = await storedThreads(engine, options);
    total = await totalOf(options.input);
    writer = new RunWriter(folder, RESULTS_FILE, exportFiles);
  } catch (error) {
    scoring?.close();
    throw error;
  }

  let done = 0;
  let failed = 0;
  let running = 0;
  let tokens = 0;
  const store = options.store ?? engine.store;
  const record = async (outcome: ItemOutcome, item: DatasetEntry): Promise<ItemResult> => {
    const { result, thread } = outcome;
    // Without exporters, every item shares one empty map (no allocation per item).
    let lines: ReadonlyMap<string, readonly string[]> = NO_LINES;
    let final: ItemResult = result;
    if (thread && item.kind === 'item' && exporters.length > 0)
      try {
        const made = new Map<string, readonly string[]>();
        for (const exporter of exporters)
          for (const [file, fileLines] of await exporter.linesFor({
            item: item.item,
            result,
            thread,
            store,
          }))
            made.set(file, fileLines);
        lines = made;
      } catch (error) {
        final = {
          ...result,
          status: 'FAILED',
          error: {
            code: 'EXPORT_FAILED',
            message: error instanceof Error ? error.message : String(error),
          },
        };
      }
    writer.add(final, lines);
    summary.add(final);
    done++;
    if (final.status !== 'COMPLETED') failed++;
    tokens += final.usage.totalTokens;
    if (options.onProgress) {
      const elapsedMs = performance.now() - started;
      const rate = done / Math.max(elapsedMs / 1000, 1e-3);
      const left = total === undefined ? undefined : Math.max(0, total - previous.count - done);
      const progress: RunProgress = {
        done,
        failed,
        skipped: previous.count,
        running,
        ...(total === undefined ? {} : { total }),
        tokens,
        elapsedMs,
        rate,
        ...(left === undefined || rate === 0 ? {} : { etaMs: (left / rate) * 1000 }),
        last: final,
      };
      options.onProgress(progress);
    }
    return final;
  };

  const entries = datasetEntries(options.input, options.itemId);
  const worker = async (): Promise<void> => {
    for (;;) {
      if (signal?.aborted) return;
      writer.check();
      scoring?.check();
      const next = await entries.next();
      if (next.done) return;
      const entry = next.value;
      if (entry.kind === 'invalid') {
        if (finished.has(entry.entry.id)) continue;
        await record(
          {
            result: {
              itemId: entry.entry.id,
              status: 'INVALID',
              usage: ZERO_USAGE,
              durationMs: 0,
              ...(entry.entry.line === undefined ? {} : { line: entry.entry.line }),
              error: entry.entry.error,
            },
            thread: undefined,
          },
          entry,
        );
        continue;
      }
      if (finished.has(entry.item.id)) {
        const result = unscored.get(entry.item.id);
        if (scoring && result) {
          unscored.delete(entry.item.id);
          await scoring.scoreStored(engine, entry.item.value, result);
        }
        continue;
      }
      running++;
      const outcome = await runItem(
        engine,
        options,
        entry.item,
        stored.has(threadIdOf(options.runId, entry.item.id)),
      );
      running--;
      if (!outcome) continue;
      const result = await record(outcome, entry);
      // Scored once its result is queued: a scorer's failure is never the item's. Code scorers
      // answer at once, and then there is nothing to wait for (an await would cost a turn).
      const scored = scoring?.score(entry.item.value, result, outcome.thread);
      if (scored) await scored;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await entries.return(undefined);
    try {
      writer.close();
    } finally {
      scoring?.close();
    }
  }
  for (const exporter of exporters) await exporter.finish?.(folder);
  const result = summary.build({
    runId: options.runId,
    workflowId: options.workflowId,
    finished: !signal?.aborted,
    elapsedMs: performance.now() - started,
    model: options.model,
    prices: options.prices,
    rateLimits: limiter?.stats,
    scores: scoring?.summary(),
  });
  await writeFile(join(folder, SUMMARY_FILE), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}
