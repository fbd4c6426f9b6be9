import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '@skein/core';
import type { JsonSchema } from '@skein/spec';
import { ToolConversionError } from '../errors/tool-conversion-error.js';
import { fromMcpCallResult } from './mcp-call-result.js';
import type { McpClient } from './mcp-client.js';
import { toMcpError } from './mcp-error-mapping.js';

export interface McpToolTarget {
  readonly client: McpClient;
  /** The server's name, for error messages. */
  readonly server: string;
  readonly source: string;
  readonly prefix: string | undefined;
  readonly requestTimeoutMs: number | undefined;
}

/** One MCP tool as a Skein tool whose `execute` calls `tools/call` on the server. */
export function mcpToolToSkein(info: McpTool, target: McpToolTarget): Tool {
  const { client, server, source, prefix, requestTimeoutMs } = target;
  const schema = info.inputSchema as unknown;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    throw new ToolConversionError(info.name, source, 'inputSchema must be a JSON Schema object');
  const mcpName = info.name;
  return {
    name: prefix === undefined ? mcpName : `${prefix}_${mcpName}`,
    description: info.description ?? info.title ?? '',
    parameters: structuredClone(schema) as JsonSchema,
    source,
    async execute(args, context) {
      let result: Awaited<ReturnType<McpClient['callTool']>>;
      try {
        result = await client.callTool({ name: mcpName, arguments: args }, undefined, {
          signal: context.signal,
          ...(requestTimeoutMs === undefined ? {} : { timeout: requestTimeoutMs }),
        });
      } catch (error) {
        // Cancelled by the engine (thread cancelled or tool timeout): it knows why; keep its reason.
        if (context.signal.aborted && error === context.signal.reason) throw error;
        throw toMcpError(error, server, `tools/call "${mcpName}"`);
      }
      return fromMcpCallResult(result);
    },
  };
}
