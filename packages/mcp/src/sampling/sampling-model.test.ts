import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResultWithTools,
} from '@modelcontextprotocol/sdk/types.js';
import { defineTool, InMemoryCheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { registerConformanceWorkflows } from '../conformance/fixture-workflows.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { McpSamplingModel } from './sampling-model.js';

const servers: SkeinMcpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

type Params = CreateMessageRequest['params'];
type Reply = (params: Params) => unknown;

function engineWith(sampling: McpSamplingModel, store = new InMemoryCheckpointStore()) {
  const engine = new SkeinEngine({ llm: sampling, store });
  registerConformanceWorkflows(engine);
  let charged = 0;
  engine.registerTool(
    defineTool({
      name: 'charge',
      description: 'Charges an amount',
      parameters: {
        type: 'object',
        properties: { amount: { type: 'number' } },
        required: ['amount'],
      },
      execute: ({ amount }: { amount: number }) => {
        charged += 1;
        return { charged: amount };
      },
    }),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('pay', '1')
      .start()
      .llm('agent', { systemPrompt: 'You pay bills.', tools: ['charge'] })
      .end('end', { output: 'nodes.agent' })
      .chain('start', 'agent', 'end')
      .build(),
  );
  return { engine, store, charged: () => charged };
}

/** A client of the engine's server; with `reply`, it samples (with tools when `tools`). */
async function connect(
  engine: SkeinEngine,
  sampling: McpSamplingModel,
  reply?: Reply,
  tools = false,
): Promise<{ client: Client; asked: Params[] }> {
  const server = createMcpServer(engine, { name: 'test', version: '1.0.0', sampling });
  servers.push(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: 'sampler', version: '1.0.0' },
    reply ? { capabilities: { sampling: tools ? { tools: {} } : {} } } : {},
  );
  const asked: Params[] = [];
  if (reply)
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request.params);
      return reply(request.params) as CreateMessageResultWithTools;
    });
  await client.connect(clientSide);
  return { client, asked };
}

const text = (t: string) => ({
  role: 'assistant',
  content: { type: 'text', text: t },
  model: 'host-model',
  stopReason: 'endTurn',
});

describe("a workflow on the calling client's model (MCP sampling)", () => {
  it("sends the thread's prompt to the client, and its answer is the node's", async () => {
    const sampling = new McpSamplingModel();
    const { engine } = engineWith(sampling);
    const { client, asked } = await connect(engine, sampling, () => text('Paris.'));
    const result = (await client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'Capital of France?' },
    })) as CallToolResult;
    expect(asked).toEqual([
      {
        messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
        maxTokens: 100,
      },
    ]);
    expect(result.structuredContent).toMatchObject({ status: 'COMPLETED', output: 'Paris.' });
  });

  it('runs a tool round through the client: tool_use in, the tool run once, tool_result back', async () => {
    const sampling = new McpSamplingModel();
    const { engine, charged } = engineWith(sampling);
    const { client, asked } = await connect(
      engine,
      sampling,
      (params) =>
        params.messages.length === 1
          ? {
              role: 'assistant',
              content: [{ type: 'tool_use', id: 'c1', name: 'charge', input: { amount: 12 } }],
              model: 'host-model',
              stopReason: 'toolUse',
            }
          : text('Paid 12.'),
      true,
    );
    const result = (await client.callTool({
      name: 'pay',
      arguments: { message: 'Pay the 12 euro bill' },
    })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ status: 'COMPLETED' });
    expect(charged()).toBe(1);
    expect(asked[0]).toMatchObject({
      systemPrompt: 'You pay bills.',
      tools: [{ name: 'charge', description: 'Charges an amount' }],
    });
    expect(asked[1]!.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: { type: 'tool_use', id: 'c1', name: 'charge', input: { amount: 12 } },
      },
      {
        role: 'user',
        content: {
          type: 'tool_result',
          toolUseId: 'c1',
          content: [{ type: 'text', text: '{"charged":12}' }],
        },
      },
    ]);
  });

  it('fails typed when no client can sample and no fallback was named; another client resumes it', async () => {
    const sampling = new McpSamplingModel();
    const { engine, store } = engineWith(sampling);
    const mute = await connect(engine, sampling);
    const failed = (await mute.client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'Hi' },
    })) as CallToolResult;
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toMatch(/SAMPLING_UNAVAILABLE/);
    const { threadId } = failed.structuredContent as { threadId: string };
    expect((await store.load(threadId))!.state.status).toBe('FAILED');
    // A session that can sample runs it on from where it failed.
    const able = await connect(engine, sampling, () => text('Hello.'));
    const resumed = (await able.client.callTool({
      name: 'resume_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(resumed.structuredContent).toMatchObject({ status: 'COMPLETED', output: 'Hello.' });
  });

  it("uses the fallback model when the client cannot sample, or cannot take the request's tools", async () => {
    const fallback = new ScriptedLLMClient(() => ({ content: 'from the fallback' }));
    const sampling = new McpSamplingModel({ fallback });
    const { engine } = engineWith(sampling);
    const mute = await connect(engine, sampling);
    const plain = (await mute.client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'Hi' },
    })) as CallToolResult;
    expect(plain.structuredContent).toMatchObject({ output: 'from the fallback' });
    // Sampling without tools: the request with tools goes to the fallback.
    const toolless = await connect(engine, sampling, () => text('never'));
    const withTools = (await toolless.client.callTool({
      name: 'pay',
      arguments: { message: 'Pay' },
    })) as CallToolResult;
    expect(withTools.structuredContent).toMatchObject({ status: 'COMPLETED' });
    expect(toolless.asked).toEqual([]);
    expect(fallback.calls).toHaveLength(2);
  });

  it('fails the node typed when the client answers something that is not a message', async () => {
    const sampling = new McpSamplingModel();
    const { engine } = engineWith(sampling);
    const { client } = await connect(engine, sampling, () => ({
      role: 'assistant',
      nothing: true,
    }));
    const result = (await client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'Hi' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/SAMPLING_FAILED/);
  });

  it('is refused as an option unless it is an McpSamplingModel', () => {
    expect(() =>
      createMcpServer(new SkeinEngine({}), { name: 't', version: '1', sampling: {} as never }),
    ).toThrow(/sampling must be the McpSamplingModel/);
  });
});
