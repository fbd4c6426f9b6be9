import type { Tool } from '@skein/core';
import { listAllMcpTools } from './list-all-mcp-tools.js';
import type { McpClient } from './mcp-client.js';
import { type McpToolOptions, resolveMcpToolOptions } from './mcp-tool-options.js';
import { mcpToolToSkein } from './mcp-tool-to-skein.js';
import { serverIdentity } from './server-identity.js';

/**
 * Every tool of a connected MCP client (all pages) as Skein tools whose `execute` calls the
 * server. Text parts become the result, other parts its `data`, `isError` an error result; a lost
 * connection is an `McpConnectionError` thrown from that call.
 */
export async function fromMcpClient(
  client: McpClient,
  options: McpToolOptions = {},
): Promise<Tool[]> {
  const { prefix, requestTimeoutMs, selects } = resolveMcpToolOptions('fromMcpClient', options);
  const { server, source } = serverIdentity(client, options.source);
  const target = { client, server, source, prefix, requestTimeoutMs };
  const listed = await listAllMcpTools(client, server, requestTimeoutMs);
  const tools: Tool[] = [];
  for (const info of listed) if (selects(info)) tools.push(mcpToolToSkein(info, target));
  return tools;
}
