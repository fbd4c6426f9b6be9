// The message, tool and usage types are the contract every package shares: they live in
// @skein/spec, and this module keeps the names importable where they used to be.
export type { JsonSchema, LLMMessage, Role, TokenUsage, ToolCall, ToolSpec } from '@skein/spec';
export { ROLES, TOOL_DESCRIPTION_KIND } from '@skein/spec';
