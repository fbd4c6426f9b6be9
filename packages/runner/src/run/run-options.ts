import type { BuildThreadOptions, CheckpointStore, SkeinEngine, ThreadContext } from '@skein/core';
import type { LLMClient, RateBudget } from '@skein/spec';
import type { FineTuningExportOptions } from '../export/fine-tuning-exporter.js';
import type { ToolBenchExportOptions } from '../export/toolbench-exporter.js';
import type { DatasetInput, ItemIdOption } from '../input/dataset-input.js';
import type { LimitModelOptions } from '../limits/limit-model.js';
import type { ItemResult } from '../output/item-result.js';
import type { ScoringOptions } from '../score/scoring.js';
import type { ModelPrice } from '../summary/run-summary.js';

/** Given to an engine factory: how to put the run's rate limits on a model. */
export interface RunContext {
  readonly runId: string;
  /** `llm` held to the run's `rpm`/`tpm` budgets, retrying 429s after their retry-after. */
  limitModel(llm: LLMClient): LLMClient;
}

/** Where a run stands, after each item. */
export interface RunProgress {
  /** Items finished by this process, whatever their status. */
  readonly done: number;
  /** Of those, the ones not COMPLETED. */
  readonly failed: number;
  /** Items finished by earlier processes of this run, skipped. */
  readonly skipped: number;
  readonly running: number;
  /** Entries of the input, when known (a list, or a file's non-blank lines). */
  readonly total?: number;
  /** Tokens used by the items finished by this process. */
  readonly tokens: number;
  readonly elapsedMs: number;
  /** Items finished per second by this process. */
  readonly rate: number;
  /** Estimated time left, when the total is known. */
  readonly etaMs?: number;
  /** The result that made this report. */
  readonly last: ItemResult;
}

export interface RunDatasetOptions extends ScoringOptions {
  /**
   * The engine, or a function making it. Use the function form with `rpm`/`tpm`: build the
   * engine's model with `context.limitModel(llm)` so every call keeps to the budgets.
   */
  readonly engine: SkeinEngine | ((context: RunContext) => SkeinEngine | Promise<SkeinEngine>);
  readonly workflowId: string;
  readonly input: DatasetInput;
  /** The run folder: `results.jsonl`, exports and `summary.json` go there. */
  readonly output: string;
  /** Names the run: threads are `<runId>/<itemId>`. The same id again resumes the run. */
  readonly runId: string;
  /** Items run at once (default 8). */
  readonly concurrency?: number;
  /** Where threads are checkpointed (default the engine's store). Without one, nothing resumes mid-item. */
  readonly store?: CheckpointStore;
  readonly itemId?: ItemIdOption;
  /** How an item starts its thread (default `{ input: item }`: a string is the first user message). */
  readonly threadOptions?: (item: unknown, itemId: string) => Omit<BuildThreadOptions, 'threadId'>;
  /**
   * Called on each new thread before it runs, e.g. to give it the item's own tools with
   * `thread.addDynamicTools` (register them in the engine too, so a resumed thread finds them).
   */
  readonly prepareThread?: (thread: ThreadContext, item: unknown) => void | Promise<void>;
  /** Steps per item before it fails (the engine's `maxSteps`, default 1,000). */
  readonly maxSteps?: number;
  readonly rpm?: number;
  readonly tpm?: number;
  /**
   * A budget to draw on instead of `rpm`/`tpm`: a `RateLimiter` shared with other runs in this
   * process, or one shared by processes on several machines (@skein/worker's `PostgresRateBudget`).
   * The summary counts this run's requests against it either way.
   */
  readonly limiter?: RateBudget;
  readonly limitOptions?: LimitModelOptions;
  readonly exports?: {
    readonly fineTuning?: FineTuningExportOptions | boolean;
    readonly toolBench?: ToolBenchExportOptions;
  };
  /** Prices per model, for the summary's cost estimate. */
  readonly prices?: Readonly<Record<string, ModelPrice>>;
  /** The model the prices are looked up for (default the only one in `prices`). */
  readonly model?: string;
  /** Stops the run: running items are cancelled (and resumed by the next run), none start. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RunProgress) => void;
}
