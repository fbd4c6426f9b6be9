export { InvalidInteropOptionError } from './errors/invalid-interop-option-error.js';
export { McpConnectionError } from './errors/mcp-connection-error.js';
export { McpRequestError } from './errors/mcp-request-error.js';
export { ToolConversionError } from './errors/tool-conversion-error.js';
export type { OpenAIFunctionToolDefinition } from './openai/to-openai-tools.js';
export { toOpenAITools } from './openai/to-openai-tools.js';
export type {
  ConflictStrategy,
  RegisterToolsOptions,
  RegisterToolsResult,
  RenamedTool,
} from './registry/register-tools.js';
export { registerTools } from './registry/register-tools.js';
