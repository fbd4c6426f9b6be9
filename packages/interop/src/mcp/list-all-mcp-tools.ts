import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { McpRequestError } from '../errors/mcp-request-error.js';
import type { McpClient } from './mcp-client.js';
import { toMcpError } from './mcp-error-mapping.js';

/** Every tool the server offers, following `nextCursor` until the last page. */
export async function listAllMcpTools(
  client: McpClient,
  server: string,
  requestTimeoutMs?: number,
): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  const requestOptions = requestTimeoutMs === undefined ? undefined : { timeout: requestTimeoutMs };
  do {
    let page: Awaited<ReturnType<McpClient['listTools']>>;
    try {
      page = await client.listTools(cursor === undefined ? undefined : { cursor }, requestOptions);
    } catch (error) {
      throw toMcpError(error, server, 'tools/list');
    }
    for (const tool of page.tools) tools.push(tool);
    cursor = page.nextCursor ?? undefined;
    if (cursor !== undefined) {
      // A server handing out a cursor twice would make us list forever.
      if (seenCursors.has(cursor))
        throw new McpRequestError(
          server,
          'tools/list',
          `the server repeated the cursor ${JSON.stringify(cursor)}`,
        );
      seenCursors.add(cursor);
    }
  } while (cursor !== undefined);
  return tools;
}
