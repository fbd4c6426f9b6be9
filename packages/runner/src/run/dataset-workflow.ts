import type { SkeinEngine } from '@skein/core';
import type { RunContext, RunDatasetOptions } from './run-options.js';

/**
 * What a workflow module for `skein run` gives: the engine and the workflow to run, and
 * optionally how items become threads, what to export and how to score them (`scorers`, used by
 * `skein run --score` and `skein score`). Everything else comes from the flags.
 */
export interface DatasetWorkflow
  extends Pick<
    RunDatasetOptions,
    | 'itemId'
    | 'threadOptions'
    | 'prepareThread'
    | 'maxSteps'
    | 'exports'
    | 'prices'
    | 'model'
    | 'store'
    | 'scorers'
    | 'scoreTimeoutMs'
  > {
  readonly engine: SkeinEngine;
  readonly workflowId: string;
  /** Called once the run has ended (close the store, stop servers). */
  close?(): void | Promise<void>;
}

/**
 * The default export (or the export named `workflow`) of a module for `skein run`: the workflow
 * itself, or a function of the run's context making it (the function form is the one that can
 * put `--rpm`/`--tpm` on its model, through `context.limitModel`).
 */
export type DatasetWorkflowModule =
  | DatasetWorkflow
  | ((context: RunContext) => DatasetWorkflow | Promise<DatasetWorkflow>);
