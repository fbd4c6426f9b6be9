export { SkeinEmitter } from './events/emitter.js';
export type * from './events/event-map.js';
export type {
  FinishReason,
  LLMCallOptions,
  LLMClient,
  LLMRequest,
  LLMResponse,
  LLMStreamEvent,
  ToolChoice,
} from './llm/llm-client.js';
export type { Tool, ToolExecutionContext, ToolOutput, ToolThreadContext } from './tools/tool.js';
export { isToolOutput, toolOutput } from './tools/tool.js';
