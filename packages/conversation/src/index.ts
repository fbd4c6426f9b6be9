export type {
  JsonSchema,
  LLMMessage,
  NonJsonValue,
  Role,
  SkeinErrorOptions,
  TokenUsage,
  ToolCall,
  ToolSpec,
} from '@skein/spec';
export {
  findNonJsonValue,
  MAX_JSON_DEPTH,
  ROLES,
  SkeinError,
  TOOL_DESCRIPTION_KIND,
} from '@skein/spec';
export type {
  BatchManagementOperation,
  ClearOperation,
  ContextOperation,
  ContextOperationType,
  FilterOperation,
  InsertOperation,
  OperationResult,
  ReplaceOperation,
  SummarizeOperation,
  TruncateByCountOperation,
  TruncateByTokensOperation,
  TruncateOperation,
} from './context-operations.js';
export { SUMMARY_KIND } from './context-operations.js';
export type {
  ConversationEventMap,
  ConversationEventName,
  ConversationObserver,
} from './conversation-events.js';
export type {
  BatchEntry,
  ConversationCursor,
  ConversationLogEntry,
  RestoredBatch,
  RestoreEntry,
  RollbackEntry,
  UsageEntry,
  ViewEntry,
} from './conversation-log.js';
export type { ConversationManagerOptions, UsageStats } from './conversation-manager.js';
export { ConversationManager } from './conversation-manager.js';
export type { ConversationErrorCode, ConversationErrorFacts } from './errors/conversation-error.js';
export { ConversationError } from './errors/conversation-error.js';
export { InvalidArgumentError } from './errors/invalid-argument-error.js';
export type { ImageSize } from './image-size.js';
export { imageSize } from './image-size.js';
export { storedContent } from './message-content.js';
export type { BatchInfo } from './message-index.js';
export { MessageIndex } from './message-index.js';
export type { ConversationDelta, ConversationSnapshot } from './snapshot.js';
export { applyDeltas, SNAPSHOT_VERSION } from './snapshot.js';
export type { TokenCounter } from './token-counter.js';
export { defaultTokenCounter } from './token-counter.js';
export type { ToolDescriptionFormatter } from './tool-description.js';
export { defaultFormatToolDescription, isToolDescription } from './tool-description.js';
