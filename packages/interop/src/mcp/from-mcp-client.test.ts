import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '@skein/core';
import { isToolOutput, type ToolOutput } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInteropOptionError } from '../errors/invalid-interop-option-error.js';
import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { McpRequestError } from '../errors/mcp-request-error.js';
import { connectInMemory, type InMemoryMcp } from '../test-support/in-memory-mcp.js';
import { toolContext } from '../test-support/tool-context.js';
import { fromMcpClient } from './from-mcp-client.js';

const BUILT_IN = [
  'add',
  'describe_image',
  'only_image',
  'weather',
  'fail',
  'throws',
  'crash',
  'wait',
  'register_tool',
];

let open: InMemoryMcp | undefined;
async function connect(options: Parameters<typeof connectInMemory>[0] = {}) {
  open = await connectInMemory(options);
  return open;
}
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function byName(tools: Tool[], name: string): Tool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(', ')}`);
  return found;
}

async function call(
  tools: Tool[],
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolOutput> {
  const result = await byName(tools, name).execute(args, toolContext());
  if (!isToolOutput(result)) throw new Error('expected a ToolOutput');
  return result;
}

describe('fromMcpClient: listing', () => {
  it('follows the cursor through every page', async () => {
    const { client, fixture } = await connect({ fillerTools: 30, pageSize: 7 });
    const tools = await fromMcpClient(client);
    expect(tools).toHaveLength(39);
    expect(tools.map((t) => t.name)).toEqual([
      ...BUILT_IN,
      ...Array.from({ length: 30 }, (_, i) => `tool_${String(i).padStart(3, '0')}`),
    ]);
    expect(fixture.cursorsSeen).toEqual([
      undefined,
      'page-7',
      'page-14',
      'page-21',
      'page-28',
      'page-35',
    ]);
  });

  it("keeps each tool's description and input schema and names its source", async () => {
    const { client } = await connect();
    const add = byName(await fromMcpClient(client), 'add');
    expect(add.description).toBe('Adds two numbers');
    expect(add.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(add.source).toBe('mcp:fixture');
  });

  it('prefix, include and exclude (by server name)', async () => {
    const { client } = await connect({ fillerTools: 3, pageSize: 2 });
    const tools = await fromMcpClient(client, {
      prefix: 'calc',
      include: ['add', 'weather', 'tool_001', 'not_on_server'],
      exclude: ['weather'],
      source: 'mcp:calculator',
    });
    expect(tools.map((t) => t.name)).toEqual(['calc_add', 'calc_tool_001']);
    expect(tools.every((t) => t.source === 'mcp:calculator')).toBe(true);
    // The prefixed tool calls the server's own name.
    expect((await call(tools, 'calc_add', { a: 2, b: 40 })).content).toBe('42');
  });

  it('rejects bad options before asking the server', async () => {
    const { client } = await connect();
    await expect(fromMcpClient(client, { prefix: '' })).rejects.toThrowError(
      InvalidInteropOptionError,
    );
    await expect(fromMcpClient(client, { include: 'add' as never })).rejects.toThrowError(
      /array of tool names/,
    );
    for (const requestTimeoutMs of [-1, 0, 2 ** 31, Number.POSITIVE_INFINITY, Number.NaN])
      await expect(fromMcpClient(client, { requestTimeoutMs })).rejects.toThrowError(
        expect.objectContaining({
          code: 'INVALID_INTEROP_OPTION',
          message: expect.stringContaining('must be a number from 1 to 2147483647'),
        }),
      );
  });

  it('a server repeating a cursor is an McpRequestError, not an endless loop', async () => {
    const server = new Server(
      { name: 'looping', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'same', inputSchema: { type: 'object' as const } }],
      nextCursor: 'again',
    }));
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 't', version: '1' });
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    const failure = fromMcpClient(client);
    await expect(failure).rejects.toThrowError(McpRequestError);
    await expect(failure).rejects.toThrow(/"looping".*repeated the cursor "again"/);
    await client.close();
    await server.close();
  });

  it('a client that is not connected is an McpConnectionError', async () => {
    const client = new Client({ name: 't', version: '1' });
    await expect(fromMcpClient(client)).rejects.toThrowError(McpConnectionError);
    await expect(fromMcpClient(client)).rejects.toThrowError(
      expect.objectContaining({
        code: 'MCP_CONNECTION_LOST',
        details: { server: '(not initialised)', operation: 'tools/list' },
      }),
    );
  });
});

describe('fromMcpClient: calling', () => {
  it('a text result becomes the tool output', async () => {
    const { client } = await connect();
    const output = await call(await fromMcpClient(client), 'add', { a: 1, b: 2 });
    expect(output).toMatchObject({ content: '3', isError: false });
    expect(output.data).toBeUndefined();
  });

  it('text parts are joined; an image is a part, its bytes nowhere else', async () => {
    const { client } = await connect();
    const tools = await fromMcpClient(client);
    const described = await call(tools, 'describe_image');
    expect(described.content).toBe('a red dot\n1x1 pixels');
    expect(described.parts?.[1]).toEqual({
      type: 'image',
      mediaType: 'image/png',
      data: expect.any(String),
    });
    expect(described.data).toBeUndefined();
    const imageOnly = await call(tools, 'only_image');
    expect(imageOnly.content).toBe('[image image/png]');
    expect(imageOnly.isError).toBe(false);
  });

  it('structured content is kept, and read as JSON when there is no text', async () => {
    const { client } = await connect();
    const output = await call(await fromMcpClient(client), 'weather', { city: 'Oslo' });
    expect(JSON.parse(output.content)).toEqual({ city: 'Oslo', celsius: 21 });
    expect(output.data).toEqual({ structuredContent: { city: 'Oslo', celsius: 21 } });
  });

  it('isError results become error outputs the model can read', async () => {
    const { client } = await connect();
    const tools = await fromMcpClient(client);
    expect(await call(tools, 'fail')).toMatchObject({
      content: 'quota exceeded\nretry after 60 s',
      isError: true,
    });
    expect(await call(tools, 'throws')).toMatchObject({
      content: 'database unavailable',
      isError: true,
    });
    const badArgs = await call(tools, 'add', { a: 'one' });
    expect(badArgs.isError).toBe(true);
    expect(badArgs.content).toContain('-32602');
  });

  it('a server that drops the connection mid-call: a typed error from that call, then from the next', async () => {
    const { client } = await connect();
    const tools = await fromMcpClient(client);
    const crash = byName(tools, 'crash').execute({}, toolContext());
    await expect(crash).rejects.toThrowError(McpConnectionError);
    await expect(crash).rejects.toThrow(
      /MCP server "fixture" is not connected \(tools\/call "crash"\)/,
    );
    await expect(byName(tools, 'add').execute({ a: 1, b: 1 }, toolContext())).rejects.toThrowError(
      expect.objectContaining({ code: 'MCP_CONNECTION_LOST' }),
    );
  });

  it('a request timing out in the SDK is an McpRequestError carrying the MCP code', async () => {
    const { client } = await connect();
    const tools = await fromMcpClient(client, { requestTimeoutMs: 50 });
    const waiting = byName(tools, 'wait').execute({}, toolContext());
    await expect(waiting).rejects.toThrowError(McpRequestError);
    await expect(waiting).rejects.toThrowError(
      expect.objectContaining({ code: 'MCP_REQUEST_FAILED', mcpCode: -32001 }),
    );
  });

  it('a call aborted by the engine rejects with the abort reason', async () => {
    const { client } = await connect();
    const controller = new AbortController();
    const tools = await fromMcpClient(client);
    const running = byName(tools, 'wait').execute({}, toolContext({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('tool timed out')), 20);
    await expect(running).rejects.toThrow('tool timed out');
    // The connection is still fine for the next call.
    expect((await call(tools, 'add', { a: 1, b: 1 })).content).toBe('2');
  });
});
