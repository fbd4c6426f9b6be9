// Public API of @skein/spec: the contract every Skein package builds on. No runtime dependencies.

export type {
  Checkpoint,
  CheckpointInfo,
  CheckpointState,
  CheckpointStore,
  ForkOrigin,
  InboxMode,
  InboxPost,
  LeaseRequest,
  PostedMessage,
  StoredState,
  StoredThread,
  StoredWake,
  ThreadInfo,
  ThreadStatus,
} from './checkpoint-store.js';
export { base64Problem, decodeBase64, encodeBase64 } from './content/base64.js';
export type {
  CheckContentOptions,
  ContentProblem,
  ContentProblemKind,
} from './content/check-content.js';
export {
  checkContent,
  contentProblem,
  DEFAULT_MAX_ATTACHMENT_BYTES,
  MAX_FILENAME_LENGTH,
} from './content/check-content.js';
export type {
  AttachmentRef,
  AudioPart,
  ContentPart,
  ContentPartType,
  FilePart,
  ImagePart,
  MediaPart,
  MediaSource,
  MessageContent,
  TextPart,
} from './content/content-part.js';
export { CONTENT_PART_TYPES } from './content/content-part.js';
export { contentText, isPartsContent } from './content/content-text.js';
export { SNIFFED_MEDIA_TYPES, sniffMediaType } from './content/media-signature.js';
export { isMediaPart, partByteLength, partBytes } from './content/part-bytes.js';
export { describeValue, jsonSafe } from './describe-value.js';
export type { ConversationExtent, ParentMismatch } from './errors/checkpoint-conflict-error.js';
export { CheckpointConflictError } from './errors/checkpoint-conflict-error.js';
export { CheckpointNotFoundError } from './errors/checkpoint-not-found-error.js';
export { InvalidArgumentError } from './errors/invalid-argument-error.js';
export { ConflictError, NotFoundError, ProviderError, StoreError } from './errors/kind-errors.js';
export type { SkeinErrorOptions } from './errors/skein-error.js';
export { SkeinError } from './errors/skein-error.js';
export type { ThreadConflictCode } from './errors/thread-conflict-error.js';
export { ThreadConflictError } from './errors/thread-conflict-error.js';
export type { ToolExecutionErrorOptions } from './errors/tool-execution-error.js';
export { ToolExecutionError } from './errors/tool-execution-error.js';
export type { ToolNameErrorCode, ToolNameErrorFacts } from './errors/tool-name-error.js';
export { ToolNameError } from './errors/tool-name-error.js';
export { ToolTimeoutError } from './errors/tool-timeout-error.js';
export type { NonJsonValue } from './json-value.js';
export { findNonJsonValue, MAX_JSON_DEPTH } from './json-value.js';
export type { HeldLease } from './lease.js';
export { checkLeaseOwner, checkLeaseRequest, mayTakeLease } from './lease.js';
export type {
  FinishReason,
  LLMCallOptions,
  LLMClient,
  LLMRequest,
  LLMResponse,
  ResponseFormat,
  ToolChoice,
} from './llm-client.js';
export type { LLMStreamEvent } from './llm-stream-event.js';
export type { LLMMessage, Role, ToolCall } from './message.js';
export { ROLES, TOOL_DESCRIPTION_KIND } from './message.js';
export { checkPrincipal, MAX_PRINCIPAL_LENGTH, principalProblem } from './principal.js';
export type { RateBudget } from './rate-budget.js';
export { checkThreadId, MAX_THREAD_ID_LENGTH, threadIdProblem } from './thread-id.js';
export type { TokenUsage } from './token-usage.js';
export type {
  Tool,
  ToolEventSink,
  ToolExecutionContext,
  ToolThreadContext,
  ToolWarning,
} from './tool.js';
export { toolCallInput } from './tool-call-input.js';
// The reversible tool-name codec every adapter uses where a provider limits tool names.
export type {
  ToolNameCodecOptions,
  ToolNameHash,
  ToolNameMapping,
} from './tool-names/tool-name-codec.js';
export { ToolNameCodec } from './tool-names/tool-name-codec.js';
export type { ToolNameRule } from './tool-names/tool-name-rule.js';
export { ANTHROPIC_TOOL_NAME_RULE, OPENAI_TOOL_NAME_RULE } from './tool-names/tool-name-rule.js';
export type { ToolOutput } from './tool-output.js';
export { isToolOutput, toolOutput } from './tool-output.js';
export type { JsonSchema, ToolSpec } from './tool-spec.js';
