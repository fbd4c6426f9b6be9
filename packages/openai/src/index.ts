// Public API of @skein/openai. Everything else in src/ is internal.

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
export { validateConversation } from './client/validate-conversation.js';
export type {
  OpenAIAssistantMessageParam,
  OpenAIFunctionToolParam,
  OpenAIMessageParam,
  OpenAISystemMessageParam,
  OpenAIToolCallParam,
  OpenAIToolMessageParam,
  OpenAIUserMessageParam,
} from './client/wire-types.js';
export { AccumulatorClosedError } from './errors/accumulator-closed-error.js';
export { InvalidChoiceIndexError } from './errors/invalid-choice-index-error.js';
export { InvalidChunkError } from './errors/invalid-chunk-error.js';
export { InvalidConversationError } from './errors/invalid-conversation-error.js';
export { InvalidToolCallIndexError } from './errors/invalid-tool-call-index-error.js';
export { InvalidToolNameError } from './errors/invalid-tool-name-error.js';
export { InvalidToolNameMappingError } from './errors/invalid-tool-name-mapping-error.js';
export { InvalidTranscriptError } from './errors/invalid-transcript-error.js';
export { ProviderRequestError } from './errors/provider-request-error.js';
export { ProviderStreamError } from './errors/provider-stream-error.js';
export { RequestAbortedError } from './errors/request-aborted-error.js';
export { RequestTimeoutError } from './errors/request-timeout-error.js';
export { StreamInterruptedError } from './errors/stream-interrupted-error.js';
export { StreamLimitExceededError } from './errors/stream-limit-exceeded-error.js';
export { ToolNameCollisionError } from './errors/tool-name-collision-error.js';
export { UnknownToolNameError } from './errors/unknown-tool-name-error.js';
export type { StreamOutcome } from './sse/read-chat-completion-stream.js';
export { readChatCompletionStream } from './sse/read-chat-completion-stream.js';
export type { SseDecoderOptions, SseEventHandler } from './sse/sse-decoder.js';
export { SseDecoder } from './sse/sse-decoder.js';
export type {
  ToolNameCodecOptions,
  ToolNameHash,
  ToolNameMapping,
} from './tool-names/tool-name-codec.js';
export { ToolNameCodec } from './tool-names/tool-name-codec.js';
export type { ToolNameRule } from './tool-names/tool-name-rule.js';
export { ANTHROPIC_TOOL_NAME_RULE, OPENAI_TOOL_NAME_RULE } from './tool-names/tool-name-rule.js';
export type { ExportTranscriptOptions } from './transcript/export-transcript.js';
export { exportTranscript } from './transcript/export-transcript.js';
export type { RestoredTranscript } from './transcript/restore-transcript.js';
export { restoreTranscript } from './transcript/restore-transcript.js';
export type {
  ExportedTranscript,
  MessageExtras,
  ToolCallExtras,
} from './transcript/transcript-types.js';
