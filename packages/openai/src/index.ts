// Public API of @skein/openai. Everything else in src/ is internal.

export type { ConversationErrorCode } from '@skein/conversation';
// The classes this package throws: @skein/conversation's, @skein/spec's and its own.
export { ConversationError } from '@skein/conversation';
// The tool-name codec lives in @skein/spec (every adapter uses it); re-exported unchanged.
export type {
  ToolNameCodecOptions,
  ToolNameErrorCode,
  ToolNameErrorFacts,
  ToolNameHash,
  ToolNameMapping,
  ToolNameRule,
} from '@skein/spec';
export {
  ANTHROPIC_TOOL_NAME_RULE,
  InvalidArgumentError,
  OPENAI_TOOL_NAME_RULE,
  ProviderError,
  ToolNameCodec,
  ToolNameError,
} from '@skein/spec';
export { ToolCallAccumulator } from './accumulator/tool-call-accumulator.js';
export type {
  AccumulatedChoice,
  AccumulatorResult,
  AccumulatorWarning,
  AssembledToolCall,
  ToolCallAccumulatorOptions,
} from './accumulator/types.js';
export type { OpenAIClient, OpenAIClientOptions } from './client/create-openai-client.js';
export { createOpenAIClient } from './client/create-openai-client.js';
export {
  METADATA_ENCODED_TOOL_NAMES,
  METADATA_REASONING,
  METADATA_REFUSAL,
  METADATA_TOOL_CALL_EXTRA_CONTENT,
} from './client/message-metadata.js';
export type { MediaFetcher, RefResolver } from './client/parts/part-options.js';
export { validateConversation } from './client/validate-conversation.js';
export type {
  OpenAIAssistantMessageParam,
  OpenAIFunctionToolParam,
  OpenAIMessageParam,
  OpenAISystemMessageParam,
  OpenAIToolCallParam,
  OpenAIToolMessageParam,
  OpenAIUserContentPart,
  OpenAIUserMessageParam,
} from './client/wire-types.js';
export type {
  OpenAIProviderError,
  OpenAIProviderErrorCode,
  OpenAIProviderErrorFacts,
} from './errors/provider-errors.js';
export { isOpenAIProviderError } from './errors/provider-errors.js';
export type { StreamOutcome } from './sse/read-chat-completion-stream.js';
export { readChatCompletionStream } from './sse/read-chat-completion-stream.js';
export type { SseDecoderOptions, SseEventHandler } from './sse/sse-decoder.js';
export { SseDecoder } from './sse/sse-decoder.js';
export type { ExportTranscriptOptions } from './transcript/export-transcript.js';
export { exportTranscript } from './transcript/export-transcript.js';
export type { RestoredTranscript } from './transcript/restore-transcript.js';
export { restoreTranscript } from './transcript/restore-transcript.js';
export type { TranscriptMedia } from './transcript/transcript-content.js';
export type {
  ExportedTranscript,
  MessageExtras,
  ToolCallExtras,
} from './transcript/transcript-types.js';
