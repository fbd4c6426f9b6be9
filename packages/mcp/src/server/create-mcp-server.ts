import type { SkeinEngine } from '@skein/core';
import type { McpServerOptions } from './mcp-server-options.js';
import { SkeinMcpServer } from './skein-mcp-server.js';
import { WorkflowService } from './workflow-service.js';

/**
 * An MCP server offering `engine`'s workflows as tools: connect it to a transport (stdio,
 * Streamable HTTP, an in-memory pair). Each workflow is a tool whose input is its variable schema
 * plus an optional first `message`, and whose result is a `ThreadReport`: the END output once
 * completed, or what the thread waits for and its id when it pauses (`resume_thread` continues
 * it; `get_thread` reports it). Throws InvalidArgumentError for options it cannot serve.
 */
export function createMcpServer(engine: SkeinEngine, options: McpServerOptions): SkeinMcpServer {
  return new SkeinMcpServer(new WorkflowService(engine, options));
}
