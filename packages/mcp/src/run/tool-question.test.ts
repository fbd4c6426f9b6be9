import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  type ElicitRequestFormParams,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  InMemoryCheckpointStore,
  pauseForInput,
  SkeinEngine,
  type Tool,
  WorkflowBuilder,
} from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { connectInMemory } from '../test-support/connect.js';

let server: SkeinMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CONFIRM = {
  type: 'object',
  properties: { nights: { type: 'integer', title: 'Nights', minimum: 1 } },
  required: ['nights'],
};

describe('a tool of a served workflow that asks a person (pauseForInput)', () => {
  it('is an elicitation form on the call’s stream; the accepted answer reaches the tool once', async () => {
    const heard: unknown[] = [];
    const book: Tool = {
      name: 'book',
      description: 'Books a room',
      parameters: { type: 'object', properties: {} },
      execute: (_args, context) => {
        heard.push(context.answered?.answer);
        if (!context.answered) return pauseForInput({ prompt: 'How many nights?', input: CONFIRM });
        return `booked ${(context.answered.answer as { nights: number }).nights} nights`;
      },
    };
    const llm = new ScriptedLLMClient([
      { toolCalls: [{ name: 'book', arguments: {} }] },
      (request) => ({ content: String(request.messages.at(-1)!.content) }),
    ]);
    const engine = new SkeinEngine({ llm, store: new InMemoryCheckpointStore() });
    engine.registerTools([book]);
    engine.registerWorkflow(
      new WorkflowBuilder('hotel', '1')
        .describe({ description: 'Books a hotel' })
        .start()
        .llm('agent', { tools: ['book'] })
        .end('end', { output: 'nodes.agent' })
        .chain('start', 'agent', 'end')
        .build(),
    );
    server = createMcpServer(engine, { name: 'test', version: '1.0.0' });
    const client: Client = await connectInMemory(server, { elicit: () => ({ action: 'cancel' }) });
    const asked: ElicitRequestFormParams[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params as ElicitRequestFormParams);
      return { action: 'accept', content: { nights: 3 } };
    });

    const result = (await client.callTool({
      name: 'hotel',
      arguments: { message: 'Book me a room' },
    })) as CallToolResult;
    expect(asked.map((a) => [a.message, a.requestedSchema])).toEqual([
      ['How many nights?', CONFIRM],
    ]);
    expect(result.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: 'booked 3 nights',
    });
    expect(heard).toEqual([undefined, { nights: 3 }]);
  });
});
