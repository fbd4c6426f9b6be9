// Public API of @skein/ai-sdk. Everything else in src/ is internal.

export type { AiSdkModelErrorCode, AiSdkModelErrorFacts } from './errors/ai-sdk-model-error.js';
export { AiSdkModelError } from './errors/ai-sdk-model-error.js';
export type { AiSdkPartErrorCode, AiSdkPartErrorFacts } from './errors/ai-sdk-part-error.js';
export { AiSdkPartError } from './errors/ai-sdk-part-error.js';
export type {
  AiSdkProviderErrorCode,
  AiSdkProviderErrorFacts,
} from './errors/ai-sdk-provider-error.js';
export { AiSdkProviderError } from './errors/ai-sdk-provider-error.js';
export type {
  FromLanguageModelOptions,
  LanguageModelClient,
} from './model/from-language-model.js';
export { fromLanguageModel } from './model/from-language-model.js';
export type {
  AiSdkCallOptions,
  AiSdkLanguageModel,
  SupportedSpecification,
} from './model/language-model.js';
export { SUPPORTED_SPECIFICATIONS } from './model/language-model.js';
export {
  METADATA_AI_SDK_REASONING,
  METADATA_AI_SDK_TOOL_CALLS,
  METADATA_REASONING,
} from './model/message-metadata.js';
// Front ends: a thread as an AI SDK UI message stream (useChat). The chat's refusals are
// @skein/http's HttpRequestError.
export type { ChatHandler, ChatHandlerOptions } from './ui/chat-handler.js';
export { createChatHandler } from './ui/chat-handler.js';
export type { ChatIfBusy } from './ui/chat-if-busy.js';
export type { GuardedTextMode, SkeinDataMode } from './ui/event-translator.js';
export type { UIMessageStreamResponseInit } from './ui/sse.js';
export {
  createUIMessageStreamResponse,
  pipeUIMessageStreamToResponse,
  UI_MESSAGE_STREAM_HEADERS,
} from './ui/sse.js';
export type { ChatServerOptions, RunningChatServer } from './ui/start-chat-server.js';
export { startChatServer } from './ui/start-chat-server.js';
export type { ThreadRun } from './ui/start-ui-run.js';
export type { ChatUIMessage } from './ui/stored-chat.js';
export { toUIMessages } from './ui/stored-chat.js';
export type { ToUIMessageStreamOptions } from './ui/to-ui-message-stream.js';
export { toUIMessageStream } from './ui/to-ui-message-stream.js';
export type {
  SkeinDataChunk,
  SkeinGuardrailData,
  SkeinNodeData,
  SkeinPausedData,
  SkeinPostedData,
  SkeinRetractData,
  SkeinSummaryData,
  UIChunk,
  UIFinishReason,
} from './ui/ui-chunk.js';
export type { PartsPool, PoolConnection, PoolNotification } from './ui/worker/parts-pool.js';
export type {
  WorkerChatHandler,
  WorkerChatHandlerOptions,
} from './ui/worker/worker-chat-handler.js';
export { createWorkerChatHandler } from './ui/worker/worker-chat-handler.js';
export type { ChatWorkerClient, ChatWorkerEvent } from './ui/worker/worker-thread-run.js';
