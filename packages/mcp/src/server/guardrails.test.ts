import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type Guardrail, InMemoryCheckpointStore, WorkflowBuilder } from '@skein/core';
import { contentText } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../test-support/connect.js';
import { testEngine } from '../test-support/workflows.js';
import { createMcpServer } from './create-mcp-server.js';
import type { SkeinMcpServer } from './skein-mcp-server.js';

const noSecrets: Guardrail = {
  stages: ['output'],
  check: (subject) =>
    subject.stage === 'output' && contentText(subject.message.content).includes('SECRET')
      ? { action: 'trip', reason: 'the answer holds a secret' }
      : { action: 'pass' },
};

const TRIP = { name: 'noSecrets', stage: 'output', reason: 'the answer holds a secret' };

let servers: SkeinMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** The test engine with a `vault` workflow whose answer (`Plan for the SECRET`) trips. */
async function connect() {
  const engine = testEngine({ store: new InMemoryCheckpointStore(), guardrails: { noSecrets } });
  engine.registerWorkflow({
    ...new WorkflowBuilder('vault', '1')
      .describe({ description: 'Tells what is in the vault' })
      .start()
      .llm('answer', { prompt: 'the SECRET', outputVariable: 'answer' })
      .end('end', { output: 'vars.answer' })
      .chain('start', 'answer', 'end')
      .build(),
    guardrails: { output: ['noSecrets'] },
  });
  let modelCalls = 0;
  engine.events.on('llm:request', () => modelCalls++);
  const server = createMcpServer(engine, { name: 'test', version: '1.0.0' });
  servers.push(server);
  const client = await connectInMemory(server);
  return { client, engine, modelCalls: () => modelCalls };
}

const text = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('a thread a guardrail stopped, through the MCP SDK client', () => {
  it('is an error result naming the guardrail and its reason, with the trip as structured content', async () => {
    const { client } = await connect();
    const result = (await client.callTool({ name: 'vault', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^GUARDRAIL_TRIPPED: thread \S+ was stopped by guardrail "noSecrets" on the model's answer: the answer holds a secret\n/,
    );
    expect(text(result)).not.toContain('run it again');
    expect(result.structuredContent).toMatchObject({
      workflowId: 'vault',
      status: 'FAILED',
      error: { code: 'GUARDRAIL_TRIPPED', nodeId: 'answer', guardrail: TRIP },
    });
  });

  it('is refused by resume_thread, typed GUARDRAIL_TRIPPED, and nothing runs', async () => {
    const { client, engine, modelCalls } = await connect();
    const run = (await client.callTool({ name: 'vault', arguments: {} })) as CallToolResult;
    const threadId = (run.structuredContent as { threadId: string }).threadId;
    expect(modelCalls()).toBe(1);
    const resumed = (await client.callTool({
      name: 'resume_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(resumed.isError).toBe(true);
    expect(text(resumed)).toContain('GUARDRAIL_TRIPPED');
    expect(text(resumed)).toContain('"noSecrets"');
    expect(resumed.structuredContent).toMatchObject({
      threadId,
      status: 'FAILED',
      error: { code: 'GUARDRAIL_TRIPPED', guardrail: TRIP },
    });
    expect(modelCalls()).toBe(1);
    const thread = await engine.getThread(threadId);
    expect(thread?.status).toBe('FAILED');
    // An input with it is refused the same way.
    const withInput = (await client.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: 'please' },
    })) as CallToolResult;
    expect(withInput.isError).toBe(true);
    expect(text(withInput)).toContain('GUARDRAIL_TRIPPED');
    expect(modelCalls()).toBe(1);
  });

  it('is reported by get_thread with the trip, as no error of the call', async () => {
    const { client } = await connect();
    const run = (await client.callTool({ name: 'vault', arguments: {} })) as CallToolResult;
    const threadId = (run.structuredContent as { threadId: string }).threadId;
    const got = (await client.callTool({
      name: 'get_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(got.isError).toBeUndefined();
    expect(text(got)).toContain('stopped by guardrail "noSecrets"');
    expect(got.structuredContent).toMatchObject({ error: { guardrail: TRIP } });
  });

  it('logs the trip as an error before the result', async () => {
    const { client } = await connect();
    const logs: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'vault', arguments: {} });
    expect(logs.map((l) => [l.level, (l.data as { event: string }).event])).toEqual([
      ['error', 'guardrail:verdict'],
      ['error', 'node:failed'],
      ['error', 'thread:failed'],
    ]);
    expect(logs[0]!.data).toMatchObject({
      guardrail: 'noSecrets',
      stage: 'output',
      action: 'trip',
      message: 'guardrail noSecrets tripped at answer: the answer holds a secret',
    });
  });
});
