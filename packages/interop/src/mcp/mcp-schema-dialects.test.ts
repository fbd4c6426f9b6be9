import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { SkeinEngine, ToolError, ToolRegistry, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { registerTools } from '../registry/register-tools.js';
import { toolContext } from '../test-support/tool-context.js';
import { fromMcpClient } from './from-mcp-client.js';

// A low-level MCP server whose tools/list answers exactly the schemas given, as servers built on
// other SDKs (or zod 4's toJSONSchema) send them.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serverWith(tools: McpTool[]): Promise<Client> {
  const server = new Server(
    { name: 'dialects', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const text =
      request.params.name === 'add'
        ? String(Number(args.a) + Number(args.b))
        : JSON.stringify(args);
    return { content: [{ type: 'text', text }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

async function runThroughEngine(
  tools: Awaited<ReturnType<typeof fromMcpClient>>,
  calls: { name: string; arguments: Record<string, unknown> }[],
) {
  const llm = new ScriptedLLMClient([{ toolCalls: calls }, { content: 'done' }]);
  const engine = new SkeinEngine({ llm });
  engine.registerTools(tools);
  engine.registerWorkflow(
    new WorkflowBuilder('mcp', '1')
      .initialTools(tools.map((t) => t.name))
      .start()
      .llm('agent')
      .end('end')
      .chain('start', 'agent', 'end')
      .build(),
  );
  const { result } = await engine.run('mcp', { input: 'go' });
  expect(result.status).toBe('COMPLETED');
  return llm.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

describe('MCP tools with JSON Schema dialects, through the engine', () => {
  it('a draft 2020-12 inputSchema validates through the engine as it runs alone', async () => {
    const client = await serverWith([
      {
        name: 'add',
        description: 'Adds',
        inputSchema: {
          $schema: DRAFT_2020,
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
      },
    ]);
    const tools = await fromMcpClient(client);
    expect(await tools[0]!.execute({ a: 2, b: 40 }, toolContext())).toMatchObject({
      content: '42',
    });
    expect(
      await runThroughEngine(tools, [
        { name: 'add', arguments: { a: 2, b: 40 } },
        { name: 'add', arguments: { a: 2, b: 'forty' } },
      ]),
    ).toEqual([
      '42',
      'Error [TOOL_ARGUMENTS_INVALID]: Arguments for tool "add" are invalid: /b must be number',
    ]);
  });

  it('two tools whose schemas share an $id are both callable', async () => {
    const schema = (type: string) => ({
      $schema: DRAFT_2020,
      $id: 'https://example.com/tool-input.json',
      type: 'object' as const,
      properties: { value: { type } },
      required: ['value'],
    });
    const client = await serverWith([
      { name: 'echo_number', inputSchema: schema('number') },
      { name: 'echo_text', inputSchema: schema('string') },
    ]);
    const tools = await fromMcpClient(client);
    expect(
      await runThroughEngine(tools, [
        { name: 'echo_number', arguments: { value: 1 } },
        { name: 'echo_text', arguments: { value: 'one' } },
      ]),
    ).toEqual(['{"value":1}', '{"value":"one"}']);
  });

  it('an inputSchema in a dialect the engine cannot validate is refused at registration', async () => {
    const client = await serverWith([
      {
        name: 'legacy',
        inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' },
      },
    ]);
    const tools = await fromMcpClient(client);
    const engine = new SkeinEngine();
    expect(() => engine.registerTools(tools)).toThrow(
      expect.objectContaining({ constructor: ToolError, code: 'INVALID_TOOL' }),
    );
    expect(engine.tools.size).toBe(0);
    const registry = new ToolRegistry();
    expect(() => registerTools(registry, tools, { onConflict: 'prefix' })).toThrow(
      /draft-04.*not a JSON Schema dialect/,
    );
    expect(registry.size).toBe(0);
  });
});
