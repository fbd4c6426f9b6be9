import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore, type SkeinEngine } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../test-support/connect.js';
import { testEngine } from '../test-support/workflows.js';
import { createMcpServer } from './create-mcp-server.js';
import type { SkeinMcpServer } from './skein-mcp-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let servers: SkeinMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

function serve(engine: SkeinEngine, workflows?: string[]) {
  const server = createMcpServer(engine, {
    name: 'test',
    version: '1.0.0',
    ...(workflows ? { workflows } : {}),
  });
  servers.push(server);
  return server;
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('createMcpServer (in-process client)', () => {
  it('lists each workflow as a tool with its variable schema, a message argument and its description', async () => {
    const client = await connectInMemory(serve(testEngine()));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'greet',
      'trip',
      'booking',
      'resume_thread',
      'get_thread',
    ]);
    const greet = tools[0]!;
    expect(greet.title).toBe('Greeter');
    expect(greet.description).toContain('Greets someone by name');
    expect(greet.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        name: { type: 'string', default: 'friend' },
        tone: { enum: ['warm', 'plain'], default: 'plain' },
        message: { type: 'string' },
      },
      additionalProperties: false,
    });
    // Both variables have defaults, so the client need give neither.
    expect(greet.inputSchema.required).toBeUndefined();
    expect(greet.outputSchema).toMatchObject({ required: ['threadId', 'workflowId', 'status'] });
  });

  it('calls a workflow: the END output as structured content and as text, under a random thread id', async () => {
    const client = await connectInMemory(serve(testEngine()));
    const result = (await client.callTool({
      name: 'greet',
      arguments: { name: 'Ada', tone: 'warm' },
    })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      workflowId: 'greet',
      status: 'COMPLETED',
      output: ['Ada', 'Dear Ada!'],
    });
    expect((result.structuredContent as { threadId: string }).threadId).toMatch(UUID);
    expect(JSON.parse(text(result))).toEqual(['Ada', 'Dear Ada!']);
  });

  it('offers only the workflows named', async () => {
    const client = await connectInMemory(serve(testEngine(), ['trip']));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['trip', 'resume_thread', 'get_thread']);
    const refused = await client
      .callTool({ name: 'greet', arguments: { name: 'Ada' } })
      .catch((e: unknown) => e);
    expect(String(refused)).toMatch(/-32602.*No tool named "greet"/);
  });

  it('sends a progress notification per node when the call has a progress token', async () => {
    const client = await connectInMemory(serve(testEngine()));
    const seen: { progress: number; message?: string }[] = [];
    await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }, undefined, {
      onprogress: (p) =>
        seen.push({ progress: p.progress, ...(p.message ? { message: p.message } : {}) }),
    });
    expect(seen).toEqual([
      { progress: 1, message: 'start (START)' },
      { progress: 2, message: 'Write the greeting (LLM)' },
      { progress: 3, message: 'end (END)' },
    ]);
  });

  it('without elicitation, a pause ends the call with what the thread waits for; resume_thread answers it', async () => {
    const client = await connectInMemory(serve(testEngine()));
    const paused = (await client.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    const report = paused.structuredContent as { threadId: string };
    expect(report).toMatchObject({
      status: 'PAUSED',
      waitingFor: { kind: 'user-input', prompt: 'Which city?' },
    });
    expect(text(paused)).toContain(`resume_thread with {"threadId":"${report.threadId}"`);
    const done = (await client.callTool({
      name: 'resume_thread',
      arguments: { threadId: report.threadId, input: 'Lisbon' },
    })) as CallToolResult;
    expect(done.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: 'Plan for Lisbon',
    });
    const again = (await client.callTool({
      name: 'get_thread',
      arguments: { threadId: report.threadId },
    })) as CallToolResult;
    expect(again.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: 'Plan for Lisbon',
    });
  });

  it('asks through elicitation when the client can, and answers the pause with the reply', async () => {
    const asked: string[] = [];
    const client = await connectInMemory(
      serve(testEngine({ store: new InMemoryCheckpointStore() })),
      {
        elicit: (message) => {
          asked.push(message);
          return { action: 'accept', content: { answer: 'Kyoto' } };
        },
      },
    );
    const result = (await client.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    expect(asked).toEqual(['Which city?']);
    expect(result.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: 'Plan for Kyoto',
    });
  });

  it('a declined elicitation leaves the thread paused, to be answered later', async () => {
    const client = await connectInMemory(serve(testEngine()), {
      elicit: () => ({ action: 'decline' }),
    });
    const result = (await client.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({
      status: 'PAUSED',
      waitingFor: { kind: 'user-input' },
    });
  });

  it('reports tool calls awaiting approval; resume_thread with approvals answers them', async () => {
    const client = await connectInMemory(serve(testEngine()));
    const paused = (await client.callTool({
      name: 'booking',
      arguments: { message: 'Book Lisbon' },
    })) as CallToolResult;
    const report = paused.structuredContent as { threadId: string };
    expect(report).toMatchObject({
      status: 'PAUSED',
      waitingFor: {
        kind: 'tool-approval',
        approvals: [
          { toolCallId: 'call_book', name: 'book_flight', arguments: '{"city":"Lisbon"}' },
        ],
      },
    });
    expect(text(paused)).toContain('"approvals":{"call_book":true}');
    const done = (await client.callTool({
      name: 'resume_thread',
      arguments: { threadId: report.threadId, input: { approvals: { call_book: true } } },
    })) as CallToolResult;
    expect(done.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: 'Done: booked to Lisbon',
    });
  });

  it("the client's cancellation cancels the thread", async () => {
    const engine = testEngine();
    const client = await connectInMemory(serve(engine));
    const controller = new AbortController();
    const started = new Promise<string>((resolve) =>
      engine.events.on('llm:request', (e) => resolve(e.threadId)),
    );
    const cancelled = new Promise<string>((resolve) =>
      engine.events.on('thread:cancelled', (e) => resolve(e.threadId)),
    );
    const call = client.callTool({ name: 'greet', arguments: { name: 'HANG' } }, undefined, {
      signal: controller.signal,
    });
    const threadId = await started;
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    expect(await cancelled).toBe(threadId);
    const report = (await client.callTool({
      name: 'get_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(report.structuredContent).toMatchObject({ status: 'CANCELLED' });
  });
});
