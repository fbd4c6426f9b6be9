// Public API of @skein/toolbench.

// Errors
// (the classes this package throws: @skein/spec's and its own)
export { InvalidArgumentError, ProviderError } from '@skein/spec';
// Answer export
export type {
  AnswerDetail,
  AnswerToolMessage,
  ConvertedAnswer,
  ConvertedAnswerInput,
} from './answer/converted-answer.js';
export { toConvertedAnswer } from './answer/converted-answer.js';
export type { PassRateSteps } from './answer/pass-rate-steps.js';
export { passRateSteps } from './answer/pass-rate-steps.js';
// Virtual-API server client
export type { ToolBenchStatusCode } from './client/status-codes.js';
export { ToolBenchStatus } from './client/status-codes.js';
export type {
  ObservationStrip,
  ToolBenchCaller,
  ToolBenchCallOptions,
  ToolBenchCallRequest,
  ToolBenchCallResult,
  ToolBenchClientOptions,
} from './client/toolbench-client.js';
export { ToolBenchClient } from './client/toolbench-client.js';
export type {
  ToolBenchProviderError,
  ToolBenchProviderErrorCode,
  ToolBenchProviderErrorFacts,
} from './errors/provider-errors.js';
export { isToolBenchProviderError } from './errors/provider-errors.js';
export type {
  ReActParseFailure,
  ToolBenchErrorCode,
  ToolBenchErrorFacts,
} from './errors/toolbench-error.js';
export { ToolBenchError } from './errors/toolbench-error.js';

// Functions and queries
export type {
  ToolBenchFunctionOptions,
  ToolBenchFunctionsOptions,
} from './functions/api-to-function.js';
export { toolBenchFunction, toolBenchFunctions } from './functions/api-to-function.js';
export {
  FINISH_FUNCTION,
  FINISH_FUNCTION_NAME,
  TOOLBENCH_FINISH_FUNCTION,
} from './functions/finish-function.js';
export { validateToolBenchQuery } from './functions/query-validation.js';
export type {
  ToolBenchApi,
  ToolBenchApiParameter,
  ToolBenchFunction,
  ToolBenchParameterProperty,
  ToolBenchQuery,
  ToolBenchToolSpec,
} from './functions/types.js';

// ReAct model adapter
export type { StopCause } from './llm/collect-completion.js';
export type {
  CompleteFunction,
  CompletionRequest,
  ReActLLMClientOptions,
} from './llm/react-llm-client.js';
export { createReActLLMClient } from './llm/react-llm-client.js';
export type { ReActMessageMetadata } from './llm/react-metadata.js';
export {
  INVALID_FUNCTION_NAME,
  REACT_METADATA_KEY,
  reactMetadataOf,
} from './llm/react-metadata.js';
export { assistantPromptText, toToolLLaMAMessages } from './llm/render-conversation.js';

// Names
export type { SplitFunctionName } from './naming/function-name.js';
export {
  splitToolBenchFunctionName,
  toolBenchApiName,
  toolBenchFunctionName,
} from './naming/function-name.js';
export type { ActionMatch, ResolveActionOptions, ResolvedAction } from './naming/resolve-action.js';
export { resolveToolBenchAction } from './naming/resolve-action.js';
export {
  renameReservedWord,
  standardizeToolBenchCategory,
  standardizeToolBenchName,
} from './naming/standardize.js';

// Function responses
export type {
  FormatFunctionResponseOptions,
  FunctionResponse,
} from './observation/function-response.js';
export {
  formatFunctionResponse,
  truncateObservation,
} from './observation/function-response.js';

// Pass rate (scores from recorded judge verdicts)
export { formatPercent, formatSolveRate } from './pass-rate/format.js';
export type { AnswerPass } from './pass-rate/is-passed.js';
export { isPassed } from './pass-rate/is-passed.js';
export type {
  PassRateFigures,
  PassRateOptions,
  QueryFigures,
  QueryRound,
} from './pass-rate/pass-rate.js';
export { computePassRate, DEFAULT_PASS_RATE_SEED } from './pass-rate/pass-rate.js';
export type { UnsolvedBeforeJudging } from './pass-rate/pre-judge.js';
export { unsolvedBeforeJudging } from './pass-rate/pre-judge.js';
export type { QueryPass } from './pass-rate/toolbench-pass.js';
export type {
  AnswerStatus,
  ParsePassRateResultsOptions,
  QueryVerdicts,
  TaskStatus,
} from './pass-rate/verdicts.js';
export { parsePassRateResults } from './pass-rate/verdicts.js';

// Prompt
export {
  TOOLBENCH_SYSTEM_TEMPLATE,
  TOOLBENCH_USER_TEMPLATE,
  TOOLLLAMA_ANCHOR_SENTENCE,
} from './prompt/prompt-texts.js';
export type {
  ToolBenchTaskDescriptionOptions,
  ToolBenchToolDescription,
} from './prompt/system-message.js';
export {
  buildToolBenchSystemMessage,
  buildToolBenchTaskDescription,
  buildToolBenchUserMessage,
  toolBenchTaskDescription,
} from './prompt/system-message.js';
export type {
  PromptFunction,
  ToolLLaMAMessage,
  ToolLLaMAPromptInput,
  ToolLLaMARole,
} from './prompt/toolllama-prompt.js';
export { buildToolLLaMAPrompt, processToolLLaMASystemMessage } from './prompt/toolllama-prompt.js';

// Python-compatible text
export { pythonJsonDumps } from './python/python-json.js';
export { pythonRepr } from './python/python-repr.js';

// ReAct parsing
export type { FinishOutcome, FinishProblem, FinishReturnType } from './react/finish-outcome.js';
export {
  FINISH_REPLIES,
  finishOutcomeFromArguments,
  finishOutcomeReference,
} from './react/finish-outcome.js';
export type { ArgumentsParsedBy } from './react/lenient-json.js';
export type { ReActParseMode } from './react/parse-react.js';
export { parseReAct } from './react/parse-react.js';
export type { ReferenceReActResult } from './react/reference-parser.js';
export { ReActStopDetector } from './react/stop-detector.js';
export type { ReActStep, ReActWarning, ReActWarningCode } from './react/tolerant-parser.js';

// Tools
export type { ToolBenchToolData, ToolsFromQueryOptions } from './tools/tools-from-query.js';
export { toolsFromQuery } from './tools/tools-from-query.js';
