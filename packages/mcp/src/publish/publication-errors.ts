import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

// What MCP's specification names for a resource that is not there.
const RESOURCE_NOT_FOUND = -32002;

/** `resources/read` or `resources/subscribe` of a URI nothing published answers to. */
export function resourceNotFound(uri: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

/** A request's parameter names something wrong: the JSON-RPC error a client shows as such. */
export function invalidParams(message: string, data?: Record<string, unknown>): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}

/** The names a client could have meant, for an error message. */
export function known(names: Iterable<string>): string {
  const all = [...names].map((n) => JSON.stringify(n));
  return all.length === 0 ? 'none is published' : `published: ${all.join(', ')}`;
}
