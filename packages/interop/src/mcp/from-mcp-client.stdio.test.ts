import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@skein/core';
import { isToolOutput, type ToolOutput } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { toolContext } from '../test-support/tool-context.js';
import { fromMcpClient } from './from-mcp-client.js';
import { watchMcpTools } from './watch-mcp-tools.js';

const SERVER = fileURLToPath(new URL('../__fixtures__/mcp-stdio-server.mjs', import.meta.url));

let client: Client | undefined;
let transport: StdioClientTransport | undefined;

/** Starts the fixture server as a child process speaking MCP on stdio. */
async function startServer(fillerTools: number, pageSize: number) {
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, String(fillerTools), String(pageSize)],
    stderr: 'pipe',
  });
  client = new Client({ name: 'skein-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

afterEach(async () => {
  await client?.close();
  client = undefined;
  transport = undefined;
});

async function run(
  tool: Tool | undefined,
  args: Record<string, unknown> = {},
): Promise<ToolOutput> {
  if (!tool) throw new Error('tool missing');
  const result = await tool.execute(args, toolContext());
  if (!isToolOutput(result)) throw new Error('expected a ToolOutput');
  return result;
}

describe('fromMcpClient over stdio (a child process)', () => {
  it('lists every page, calls tools, reads isError results', async () => {
    const { client } = await startServer(20, 6);
    const tools = await fromMcpClient(client);
    expect(tools).toHaveLength(29);
    expect(tools.every((t) => t.source === 'mcp:fixture-stdio')).toBe(true);
    const named = new Map(tools.map((t) => [t.name, t]));
    expect(await run(named.get('add'), { a: 20, b: 22 })).toMatchObject({
      content: '42',
      isError: false,
    });
    expect(await run(named.get('tool_019'), { value: 'v' })).toMatchObject({
      content: 'tool_019:v',
    });
    expect(await run(named.get('fail'))).toMatchObject({
      content: 'quota exceeded\nretry after 60 s',
      isError: true,
    });
  });

  it('a server process that dies mid-call gives a typed error from that call, not a crash', async () => {
    const { client, transport } = await startServer(0, 0);
    const tools = await fromMcpClient(client);
    const pid = transport.pid;
    expect(pid).toBeTypeOf('number');
    const crash = tools.find((t) => t.name === 'crash')?.execute({}, toolContext());
    await expect(crash).rejects.toThrowError(McpConnectionError);
    await expect(crash).rejects.toThrowError(
      expect.objectContaining({ code: 'MCP_CONNECTION_LOST' }),
    );
    // The child is gone: signal 0 only checks that a process exists.
    expect(() => process.kill(pid as number, 0)).toThrow();
    const add = tools.find((t) => t.name === 'add');
    await expect(add?.execute({ a: 1, b: 1 }, toolContext())).rejects.toThrowError(
      McpConnectionError,
    );
  });

  it('picks up a tool the server adds at run time (notifications/tools/list_changed)', async () => {
    const { client } = await startServer(3, 4);
    const watch = await watchMcpTools(client, { prefix: 'srv' });
    const changed = new Promise<string[]>((resolve) =>
      watch.once('change', (change) => resolve(change.added.map((t) => t.name))),
    );
    await run(
      watch.tools.find((t) => t.name === 'srv_register_tool'),
      { name: 'late_tool' },
    );
    expect(await changed).toEqual(['srv_late_tool']);
    const late = watch.tools.find((t) => t.name === 'srv_late_tool');
    expect(await run(late, { value: 'x' })).toMatchObject({ content: 'late_tool:x' });
    watch.close();
  });
});
