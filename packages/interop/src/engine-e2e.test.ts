import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { tool } from '@openai/agents';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromMcpClient } from './mcp/from-mcp-client.js';
import { fromFunctionTool } from './openai-agents/from-function-tool.js';
import { registerTools } from './registry/register-tools.js';

// Converted tools inside a @skein/core workflow, driven by the scripted model: results, an error
// turned into text by errorFunction, a tool disabled for this thread, an approval-gated tool, and
// an MCP tool next to them.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function mcpClient() {
  const server = new McpServer({ name: 'maths', version: '1.0.0' });
  server.registerTool(
    'square',
    { description: 'Squares a number', inputSchema: { x: z.number() } },
    async ({ x }) => ({ content: [{ type: 'text', text: String(x * x) }] }),
  );
  server.registerTool('fail', { description: 'Always fails', inputSchema: {} }, async () => ({
    isError: true,
    content: [{ type: 'text', text: 'the backend said no' }],
  }));
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

describe('converted tools in a Skein workflow', () => {
  it('run inside a thread with their results, errors, enablement and approval', async () => {
    const executed: string[] = [];
    const weather = tool({
      name: 'weather',
      description: 'Weather for a city (zod parameters)',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => {
        executed.push(`weather:${city}`);
        return `Sunny in ${city}`;
      },
    });
    const flaky = tool({
      name: 'flaky',
      description: 'Fails, and says so in words (JSON Schema parameters)',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string' } },
        required: ['id'],
        additionalProperties: false,
      },
      strict: true,
      execute: () => {
        throw new Error('database offline');
      },
      errorFunction: (_ctx, error) => `flaky could not run: ${(error as Error).message}`,
    });
    const admin = tool({
      name: 'admin_reset',
      description: 'Only for admins',
      parameters: z.object({}),
      isEnabled: ({ runContext }) => (runContext.context as { role?: string }).role === 'admin',
      execute: () => {
        executed.push('admin_reset');
        return 'reset';
      },
    });
    const refund = tool({
      name: 'refund',
      description: 'Refunds an order',
      parameters: z.object({ order: z.string() }),
      needsApproval: true,
      execute: ({ order }) => {
        executed.push(`refund:${order}`);
        return `refunded ${order}`;
      },
    });

    const tools = [
      ...[weather, flaky, admin, refund].map((t) => fromFunctionTool(t)),
      ...(await fromMcpClient(await mcpClient())),
    ];
    const llm = new ScriptedLLMClient(
      [
        {
          toolCalls: [
            { name: 'weather', arguments: { city: 'Lisbon' } },
            { name: 'flaky', arguments: { id: 'x1' } },
            { name: 'square', arguments: { x: 12 } },
            { name: 'fail', arguments: {} },
          ],
        },
        { toolCalls: [{ name: 'refund', arguments: { order: 'A-7' } }] },
        { content: 'All done.' },
      ],
      { whenExhausted: 'repeat-last' },
    );
    const engine = new SkeinEngine({ llm });
    const { renamed } = registerTools(engine.tools, tools);
    expect(renamed).toEqual([]);
    engine.registerWorkflow(
      new WorkflowBuilder('interop', '1')
        .initialTools(tools.map((t) => t.name))
        .start()
        .llm('agent')
        .end('end')
        .chain('start', 'agent', 'end')
        .build(),
    );

    const thread = engine.createThread('interop', {
      input: 'Help me',
      variables: { role: 'guest' },
    });
    const { result: paused } = await engine.run(thread);

    // A guest never sees the admin tool; everyone else is offered.
    expect(llm.requests[0]!.tools.map((t) => t.name)).toEqual([
      'weather',
      'flaky',
      'refund',
      'square',
      'fail',
    ]);
    const results = llm.requests[1]!.messages.filter((m) => m.role === 'tool').map(
      (m) => m.content,
    );
    expect(results).toEqual([
      'Sunny in Lisbon',
      'flaky could not run: database offline',
      '144',
      'the backend said no',
    ]);

    // The approval-gated refund paused the thread before running.
    expect(paused.status).toBe('PAUSED');
    expect(paused.pending).toMatchObject({ kind: 'tool-approval', awaiting: [expect.any(String)] });
    expect(executed).toEqual(['weather:Lisbon']);
    const { result: done } = await engine.resume(thread, true);
    expect(done).toMatchObject({ status: 'COMPLETED', output: 'All done.' });
    expect(executed).toEqual(['weather:Lisbon', 'refund:A-7']);

    // An admin thread of the same engine is offered the admin tool (isEnabled is per thread).
    const before = llm.requests.length;
    const adminRun = await engine.run('interop', { input: 'reset', variables: { role: 'admin' } });
    expect(adminRun.result.status).toBe('COMPLETED');
    expect(llm.requests[before]!.tools.map((t) => t.name)).toContain('admin_reset');
  });
});
