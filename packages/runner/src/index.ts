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
export type { ScoreErrorCode, ScoreErrorFacts } from './errors/score-error.js';
export { ScoreError } from './errors/score-error.js';
export type { FineTuningExportOptions } from './export/fine-tuning-exporter.js';
export type { ToolBenchExportOptions } from './export/toolbench-exporter.js';
export { validateFineTuningLine } from './export/validate-fine-tuning-line.js';
export type { DatasetInput, ItemIdOption } from './input/dataset-input.js';
export type { LimitModelOptions } from './limits/limit-model.js';
export { limitModel } from './limits/limit-model.js';
export type { RateLimiterStats, RateLimits } from './limits/rate-limiter.js';
export { RateLimiter } from './limits/rate-limiter.js';
export type { ItemError, ItemResult, ItemStatus } from './output/item-result.js';
export type { ReportOptions } from './report/report-options.js';
export { writeComparisonReport } from './report/write-comparison-report.js';
export { writeRunReport } from './report/write-run-report.js';
export type { DatasetWorkflow, DatasetWorkflowModule } from './run/dataset-workflow.js';
export { runDataset } from './run/run-dataset.js';
export type { RunContext, RunDatasetOptions, RunProgress } from './run/run-options.js';
export type { ScoreRunOptions, ScoreRunSummary } from './run/score-run.js';
export { scoreRun } from './run/score-run.js';
export type { ScoreLine } from './score/read-scores.js';
export type { ScorerSummary } from './score/score-book.js';
export type { ScoreFailure } from './score/score-writer.js';
export type { ScoredToolCall, Scorer, ScorerInput, ScoreValue } from './score/scorer.js';
export type { JudgeModelOptions } from './score/scorers/ask-verdict.js';
export type { ExactMatchOptions } from './score/scorers/exact-match.js';
export { exactMatch } from './score/scorers/exact-match.js';
export type { ExpectedOption } from './score/scorers/expected-value.js';
export type { FunctionScore } from './score/scorers/function-scorer.js';
export { functionScorer } from './score/scorers/function-scorer.js';
export type { JsonSchemaMatchOptions } from './score/scorers/json-schema-match.js';
export { jsonSchemaMatch } from './score/scorers/json-schema-match.js';
export type { JudgeDetails } from './score/scorers/judge-details.js';
export type {
  ArgumentMatch,
  ExpectedToolCall,
  TrajectoryMode,
} from './score/scorers/match-trajectory.js';
export type { RubricScorerOptions } from './score/scorers/rubric-scorer.js';
export { rubricScorer } from './score/scorers/rubric-scorer.js';
export type { ToolBenchJudgeOptions } from './score/scorers/toolbench-judge.js';
export { toolBenchJudge } from './score/scorers/toolbench-judge.js';
export type { TrajectoryScorerOptions } from './score/scorers/trajectory-scorer.js';
export { trajectoryScorer } from './score/scorers/trajectory-scorer.js';
export type { ScoreReport, ScoringOptions } from './score/scoring.js';
export type { ToolBenchPassRateOptions } from './score/toolbench-pass-rate.js';
export { toolBenchPassRate } from './score/toolbench-pass-rate.js';
export { formatSummary } from './summary/format-summary.js';
export type { ModelPrice, RunSummary, TopError } from './summary/run-summary.js';
