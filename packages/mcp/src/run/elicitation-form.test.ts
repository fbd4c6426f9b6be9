import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  type ElicitRequestFormParams,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { registerConformanceWorkflows } from '../conformance/fixture-workflows.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { connectInMemory } from '../test-support/connect.js';
import { elicitationForm } from './elicitation-form.js';

let server: SkeinMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A client whose user answers each form with `reply`; the forms it was shown are in `asked`. */
async function connect(reply: (params: ElicitRequestFormParams) => ElicitResult) {
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ store });
  registerConformanceWorkflows(engine);
  engine.registerWorkflow(
    new WorkflowBuilder('nested', '1')
      .start()
      .userInteraction('ask', {
        variable: 'answer',
        input: { type: 'object', properties: { address: { type: 'object' } } },
      })
      .end('end', { output: 'vars.answer' })
      .chain('start', 'ask', 'end')
      .build(),
  );
  server = createMcpServer(engine, { name: 'test', version: '1.0.0' });
  const asked: ElicitRequestFormParams[] = [];
  const client: Client = await connectInMemory(server, { elicit: () => ({ action: 'cancel' }) });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    const params = request.params as ElicitRequestFormParams;
    asked.push(params);
    return reply(params);
  });
  return { client, store, asked };
}

function threadOf(result: CallToolResult): string {
  return (result.structuredContent as { threadId: string }).threadId;
}

describe("elicitation forms from a USER_INTERACTION node's input schema", () => {
  it('asks with the form of the schema, and the accepted content is the answer', async () => {
    const { client, store, asked } = await connect(() => ({
      action: 'accept',
      content: { username: 'ana', email: 'ana@example.com' },
    }));
    const result = (await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who are you?' },
    })) as CallToolResult;
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toBe('Who are you?');
    expect(asked[0]!.requestedSchema).toEqual({
      type: 'object',
      properties: {
        username: { type: 'string', description: "User's response" },
        email: { type: 'string', description: "User's email address" },
      },
      required: ['username', 'email'],
    });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: { username: 'ana', email: 'ana@example.com' },
    });
    const stored = await store.load(threadOf(result));
    expect(stored!.state.variables.answer).toEqual({ username: 'ana', email: 'ana@example.com' });
  });

  it('leaves the thread waiting when the reply does not fill the form, and refuses a bad answer later', async () => {
    const { client, store } = await connect(() => ({
      action: 'accept',
      content: { username: 'ana' },
    }));
    // The MCP SDK checks the reply against the form and drops it: nothing is claimed.
    const waiting = (await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who are you?' },
    })) as CallToolResult;
    expect(waiting.structuredContent).toMatchObject({ status: 'PAUSED' });
    const threadId = threadOf(waiting);
    expect((await store.load(threadId))!.state.pending).toMatchObject({ kind: 'user-input' });
    expect((await store.load(threadId))!.state.pending!.answer).toBeUndefined();
    // Answered another way, the engine checks the schema itself before it claims the pause.
    const refused = (await client.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: { username: 'ana' } },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/RESUME_INPUT_INVALID.*email/);
    expect((await store.load(threadId))!.state.status).toBe('PAUSED');
    const answered = (await client.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: { username: 'ana', email: 'a@x' } },
    })) as CallToolResult;
    expect(answered.structuredContent).toMatchObject({ status: 'COMPLETED' });
  });

  it('sends defaults and choices as the schema has them (SEP-1034, SEP-1330)', async () => {
    const { client, asked } = await connect(
      (params): ElicitResult =>
        params.message === 'Pick your options'
          ? {
              action: 'accept',
              content: {
                untitledSingle: 'option1',
                titledSingle: 'value1',
                legacyEnum: 'opt1',
                untitledMulti: ['option1', 'option2'],
                titledMulti: ['value1', 'value2'],
              },
            }
          : {
              action: 'accept',
              content: { name: 'Jane', age: 25, score: 88, status: 'inactive', verified: false },
            },
    );
    const defaults = (await client.callTool({
      name: 'test_elicitation_sep1034_defaults',
      arguments: {},
    })) as CallToolResult;
    expect(defaults.structuredContent).toMatchObject({ status: 'COMPLETED' });
    expect(asked[0]!.requestedSchema.properties).toMatchObject({
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', default: true },
    });
    const choices = (await client.callTool({
      name: 'test_elicitation_sep1330_enums',
      arguments: {},
    })) as CallToolResult;
    expect(choices.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: { untitledMulti: ['option1', 'option2'] },
    });
    expect(asked[1]!.requestedSchema.properties.titledMulti).toMatchObject({
      type: 'array',
      items: { anyOf: [{ const: 'value1', title: 'First Choice' }, {}, {}] },
    });
  });

  it('does not ask when no form can show the schema, or when the user declines', async () => {
    const declining = await connect(() => ({ action: 'decline' }));
    const declined = (await declining.client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who?' },
    })) as CallToolResult;
    expect(declined.structuredContent).toMatchObject({ status: 'PAUSED' });
    await server!.close();
    const { client, asked } = await connect(() => ({ action: 'accept', content: {} }));
    const nested = (await client.callTool({ name: 'nested', arguments: {} })) as CallToolResult;
    expect(asked).toEqual([]);
    expect(nested.structuredContent).toMatchObject({ status: 'PAUSED' });
  });
});

describe('elicitationForm', () => {
  it('keeps the fields and required names, and drops top-level keywords a form does not know', () => {
    expect(
      elicitationForm({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { n: { type: 'integer', minimum: 1 } },
        required: ['n', 7],
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1 } },
      required: ['n'],
    });
  });

  it.each([
    ['a string schema', { type: 'string' }],
    ['no properties', { type: 'object', properties: {} }],
    ['a nested object', { type: 'object', properties: { a: { type: 'object' } } }],
    ['a $ref', { type: 'object', properties: { a: { $ref: '#/$defs/a' } } }],
    [
      'an array of free values',
      { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } },
    ],
    ['a boolean schema', true],
  ])('has no form for %s', (_, schema) => {
    expect(elicitationForm(schema)).toBeUndefined();
  });
});
