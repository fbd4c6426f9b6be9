export { ToolConversionError } from './errors/tool-conversion-error.js';
export type {
  FromFunctionToolOptions,
  FunctionToolLike,
} from './openai-agents/from-function-tool.js';
export { fromFunctionTool } from './openai-agents/from-function-tool.js';
export type { ToFunctionToolOptions } from './openai-agents/to-function-tool.js';
export { toFunctionTool } from './openai-agents/to-function-tool.js';
