// Public API of @skein/runner. Nothing else is importable.

// The classes this package throws: @skein/spec's and its own.
export { InvalidArgumentError, ProviderError } from '@skein/spec';
export type { RateLimitedError } from './errors/rate-limited.js';
export type {
  RunFolderErrorCode,
  RunnerErrorCode,
  RunnerErrorFacts,
  WorkflowModuleErrorCode,
} from './errors/runner-error.js';
export { RunnerError } from './errors/runner-error.js';
export type { FineTuningExportOptions } from './export/fine-tuning-exporter.js';
export type { ToolBenchExportOptions } from './export/toolbench-exporter.js';
export { validateFineTuningLine } from './export/validate-fine-tuning-line.js';
export type { DatasetInput, ItemIdOption } from './input/dataset-input.js';
export type { LimitModelOptions } from './limits/limit-model.js';
export { limitModel } from './limits/limit-model.js';
export type { RateLimiterStats, RateLimits } from './limits/rate-limiter.js';
export { RateLimiter } from './limits/rate-limiter.js';
export type { ItemError, ItemResult, ItemStatus } from './output/item-result.js';
export type { DatasetWorkflow, DatasetWorkflowModule } from './run/dataset-workflow.js';
export { runDataset } from './run/run-dataset.js';
export type { RunContext, RunDatasetOptions, RunProgress } from './run/run-options.js';
export { formatSummary } from './summary/format-summary.js';
export type { ModelPrice, RunSummary, TopError } from './summary/run-summary.js';
