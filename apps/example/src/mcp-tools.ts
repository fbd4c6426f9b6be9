import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@skein/core';
import { fromMcpClient } from '@skein/interop/mcp';

export interface McpTools {
  /** The server's tools as Skein tools (`source: 'mcp:weather'`). */
  readonly tools: readonly Tool[];
  /** The child process's id, for the terminal and the tests. */
  readonly pid: number;
  /** Ends the session and waits for the child process to exit. */
  close(): Promise<void>;
}

/**
 * The server file beside this module: `dist/mcp-server.js` once built, or `src/mcp-server.ts`
 * when the app runs from source (tests run it through tsx).
 */
function serverCommand(): { command: string; args: string[]; cwd: string } {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = fileURLToPath(new URL(`./mcp-server.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  return {
    command: process.execPath,
    args: fromSource ? ['--import', 'tsx', file] : [file],
    cwd: dirname(file),
  };
}

/** Starts the weather MCP server as a stdio child process and converts its tools. */
export async function startMcpTools(): Promise<McpTools> {
  const transport = new StdioClientTransport({ ...serverCommand(), stderr: 'inherit' });
  const client = new Client({ name: 'skein-example', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  try {
    if (pid === null) throw new Error('the weather MCP server did not start');
    const tools = await fromMcpClient(client, { requestTimeoutMs: 20_000 });
    return { tools, pid, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}
