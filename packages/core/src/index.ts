// Public API of @skein/core: what an app uses to declare workflows and tools and run threads.
// Node authoring, store authoring, test helpers and the shared suites have entries of their own
// (`/nodes`, `/store-kit`, `/testing`, `/conformance`), so this list stays one an app can hold.

// The contract (@skein/spec) is re-exported so users of the engine need only this package.
// Models
export type {
  AudioPart,
  ContentPart,
  FilePart,
  FinishReason,
  ImagePart,
  JsonSchema,
  LLMCallOptions,
  LLMClient,
  LLMMessage,
  LLMRequest,
  LLMResponse,
  LLMStreamEvent,
  MessageContent,
  Role,
  TextPart,
  TokenUsage,
  ToolCall,
  ToolChoice,
  ToolSpec,
} from '@skein/spec';
export {
  CheckpointConflictError,
  CheckpointNotFoundError,
  contentText,
  InvalidArgumentError,
  NotFoundError,
  SkeinError,
  ThreadConflictError,
  ToolExecutionError,
  ToolTimeoutError,
} from '@skein/spec';
// Branches and child threads
export type { MergeFunction, MergeInput } from './branches/merge.js';
// Checkpoints: what an app passes the engine (a store's own types are in `@skein/core/store-kit`)
export type { CheckpointStore } from './checkpoint/checkpoint-store.js';
export { InMemoryCheckpointStore } from './checkpoint/in-memory-checkpoint-store.js';
export type { SentMessage } from './engine/chat-turn.js';
// Why a message sent now would wait (a turn runs, the thread waits for time, an event, tool
// approvals or its branches): what a chat server checks before it answers `ifBusy: 'reject'`.
export { busyReason } from './engine/chat-turn.js';
export type { PostedResult, SendResult } from './engine/posted-result.js';
// A principal's view of the engine: threads that belong to one caller.
export type { PrincipalBuildOptions, PrincipalEngine } from './engine/principal-engine.js';
export type {
  FollowOptions,
  ForkOptions,
  RegisterWorkflowOptions,
  RunOutcome,
  SendOptions,
  SkeinEngineOptions,
} from './engine/skein-engine.js';
// Engine
export { SkeinEngine } from './engine/skein-engine.js';
export type { IfBusy, TurnOptions } from './engine/thread-turns.js';
// Errors
export type {
  ExpressionErrorCode,
  ExpressionErrorFacts,
} from './errors/expression-error.js';
export { ExpressionError } from './errors/expression-error.js';
export { ListenerError } from './errors/listener-error.js';
export { LLMCallError } from './errors/llm-call-error.js';
export type { NodeErrorCode, NodeErrorFacts } from './errors/node-error.js';
export { NodeError } from './errors/node-error.js';
export type { CoreNotFoundCode } from './errors/not-found.js';
export type { ThreadErrorCode, ThreadErrorFacts, UpgradeIssue } from './errors/thread-error.js';
export { ThreadError } from './errors/thread-error.js';
export type { ToolConflict, ToolErrorCode, ToolErrorFacts } from './errors/tool-error.js';
export { ToolError } from './errors/tool-error.js';
export type { WorkflowIssue, WorkflowIssueCode } from './errors/workflow-validation-error.js';
export { WorkflowValidationError } from './errors/workflow-validation-error.js';
export type { ThreadScope } from './events/emitter.js';
export { SkeinEmitter } from './events/emitter.js';
// Events
export type * from './events/event-map.js';
export type { ThreadEvent, ThreadEventListener, ThreadEventName } from './events/thread-event.js';
export type { CompiledExpression, ExpressionNode } from './expressions/ast.js';
export type { ExpressionScope } from './expressions/evaluate.js';
export { evaluateExpression } from './expressions/evaluate.js';
export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_TOKENS } from './expressions/expression-limits.js';
// Expressions
export { compileExpression } from './expressions/parser.js';
export type { CompiledTemplate } from './expressions/template.js';
// Guardrails
export type {
  GuardedCall,
  Guardrail,
  GuardrailContext,
  GuardrailNames,
  GuardrailStage,
  GuardrailSubject,
  GuardrailVerdict,
  ToolGuardrailNames,
} from './guardrails/guardrail.js';
export type { GuardrailErrorCode, GuardrailErrorFacts } from './guardrails/guardrail-error.js';
export { GuardrailError } from './guardrails/guardrail-error.js';
export type { GuardrailRegistry } from './guardrails/guardrail-registry.js';
export type { ModelGuardrailOptions } from './guardrails/model-guardrail.js';
export { modelGuardrail } from './guardrails/model-guardrail.js';
// History: checkpoints of a thread, forks
export type { ForkChanges } from './history/fork-thread.js';
export type { HistoryChanges, HistoryEntry, HistoryOptions } from './history/thread-history.js';
// Nodes (a handler's contract is in `@skein/core/nodes`)
export { handleClearOperation } from './nodes/context-processor-node.js';
export type { ApprovalDecision } from './pauses/approval-decisions.js';
export type { NodeFailure, NodeFailureFacts } from './run/node-failure.js';
export { isNodeFailure } from './run/node-failure.js';
export type {
  ExecuteOptions,
  ResumeWith,
  StartedRun,
  ThreadExecutorOptions,
  ThreadResult,
} from './run/thread-executor.js';
export { ThreadExecutor } from './run/thread-executor.js';
// Outside events: signals and webhooks
export type { SignalResult } from './signals/deliver-signal.js';
export type { WebhookDelivery } from './signals/webhooks.js';
export type {
  BuildThreadOptions,
  FromCheckpointOptions,
  ThreadBuilderOptions,
} from './thread/thread-builder.js';
// Threads
export { ThreadBuilder } from './thread/thread-builder.js';
export type { AvailableTools } from './thread/thread-context.js';
export { ThreadContext } from './thread/thread-context.js';
export type {
  BranchWait,
  ForkOrigin,
  PausedToolCall,
  PendingAnswer,
  PendingInteraction,
  PendingWebhook,
  SerializedError,
  ThreadParent,
  ThreadState,
  ThreadStatus,
  TrippedGuardrail,
} from './thread/thread-state.js';
export type { ThreadTransition } from './thread/thread-transition.js';
// Time: wakes
export type { Wake } from './thread/wake-of.js';
export { wakeOf } from './thread/wake-of.js';
export { MAX_TIMER_MS } from './time/wake-timers.js';
export { ArgumentValidator } from './tools/argument-validator.js';
// Tools
export type { JsonSchemaToolDefinition, StandardToolDefinition } from './tools/define-tool.js';
export { defineTool } from './tools/define-tool.js';
export type { FromSchema } from './tools/from-json-schema.js';
export type { InferStandardOutput, StandardSchemaV1 } from './tools/standard-schema.js';
export type { Tool, ToolExecutionContext, ToolOutput, ToolThreadContext } from './tools/tool.js';
export { isToolOutput, toolOutput } from './tools/tool.js';
export type { ToolInputAnswer, ToolInputPause, ToolInputRequest } from './tools/tool-input.js';
export { pauseForInput } from './tools/tool-input.js';
export type {
  ConflictStrategy,
  RegisterOptions,
  RegistrationResult,
  RenamedTool,
} from './tools/tool-registry.js';
export { ToolRegistry } from './tools/tool-registry.js';
export type { ToolRunContext, ToolRunResult } from './tools/tool-runner.js';
export { ToolRunner } from './tools/tool-runner.js';
export type { WorkflowCall } from './tools/workflow-call.js';
export type { WorkflowToolOptions } from './tools/workflow-tool.js';
export { workflowTool } from './tools/workflow-tool.js';
// Versions of running threads
export type { MigrationStep, WorkflowMigration } from './versions/migrations.js';
export type { UpgradeProblem } from './versions/plan-upgrade.js';
export type { UpgradeOptions, UpgradeResult } from './versions/upgrade-threads.js';
// Webhooks: the handler an app mounts on its public server
export type { ChatWorkflowOptions } from './workflow/chat-workflow.js';
export { chatWorkflow } from './workflow/chat-workflow.js';
export type { CompiledEdge, CompiledWorkflow } from './workflow/compiled-workflow.js';
export type { MermaidOptions } from './workflow/mermaid.js';
export { toMermaid } from './workflow/mermaid.js';
// Workflows
export type {
  BranchConversation,
  BranchDefinition,
  ContextProcessorNode,
  ContextProcessorOperation,
  EdgeDefinition,
  EndNode,
  JoinNode,
  LLMNode,
  LLMNodeConfig,
  LLMOutputConfig,
  MapNode,
  MergePolicy,
  NodeDefinition,
  NodeType,
  ParallelNode,
  RetryPolicy,
  RouteNode,
  SleepNode,
  StartNode,
  SubworkflowNode,
  ToolNode,
  ToolNodeConfig,
  TriggerAction,
  TriggerCondition,
  TriggerDefinition,
  UserInteractionNode,
  VariableNode,
  VariableNodeConfig,
  WaitForEventNode,
  WaitTimeout,
  WorkflowDefinition,
} from './workflow/types.js';
export { NODE_TYPES } from './workflow/types.js';
export type { ValidateOptions } from './workflow/validate-workflow.js';
export { validateWorkflow } from './workflow/validate-workflow.js';
export { WorkflowBuilder } from './workflow/workflow-builder.js';
export { WorkflowRegistry } from './workflow/workflow-registry.js';
