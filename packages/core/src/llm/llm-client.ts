// The model contract is shared with adapters that do not need the engine: it lives in
// @skein/spec, and this module keeps the names importable where they used to be.
export type {
  FinishReason,
  LLMCallOptions,
  LLMClient,
  LLMRequest,
  LLMResponse,
  LLMStreamEvent,
  ToolChoice,
} from '@skein/spec';
