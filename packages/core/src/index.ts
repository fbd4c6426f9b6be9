export { InvalidToolError } from './errors/invalid-tool-error.js';
export type { ToolConflict } from './errors/tool-conflict-error.js';
export { ToolConflictError } from './errors/tool-conflict-error.js';
export { ToolNotFoundError } from './errors/tool-not-found-error.js';
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
export type { RegisterOptions } from './tools/tool-registry.js';
export { ToolRegistry } from './tools/tool-registry.js';
