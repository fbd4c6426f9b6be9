import { type LLMClient, SkeinEngine, type Tool, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient, type ScriptedResponse } from '@skein/core/testing';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from './client/create-openai-client.js';

// Issue 18: one script, written once, runs unchanged on the in-process scripted model and on the
// HTTP server behind the OpenAI client, and the engine ends with the same conversation.

const script: ScriptedResponse[] = [
  {
    toolCalls: [
      { name: 'weather', arguments: { city: 'Oslo' } },
      { name: 'weather', arguments: '{"city":"Bergen"}' },
    ],
    usage: { promptTokens: 20, completionTokens: 8 },
  },
  {
    content: 'It is sunny in Oslo and raining in Bergen.',
    usage: { promptTokens: 40, completionTokens: 9 },
  },
];

const weather: Tool<{ city: string }> = {
  name: 'weather',
  description: 'Current weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => (city === 'Oslo' ? 'sunny' : 'raining'),
};

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function converse(llm: LLMClient) {
  const engine = new SkeinEngine({ llm });
  engine.registerTool(weather);
  engine.registerWorkflow(
    new WorkflowBuilder('weather', '1')
      .initialTools(['weather'])
      .start()
      .llm('ask')
      .end('end')
      .chain('start', 'ask', 'end')
      .build(),
  );
  const { thread, result } = await engine.run('weather', { input: 'Weather in Oslo and Bergen?' });
  return { result, messages: thread.conversation.getAllMessages() };
}

// Ids, times and the model name are made by whoever answers; the conversation is the rest.
const GENERATED = new Set(['id', 'toolCallId', 'timestamp', 'createdAt', 'model']);
function withoutGenerated(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutGenerated);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !GENERATED.has(key))
      .map(([key, field]) => [key, withoutGenerated(field)]),
  );
}

describe('one script on both scripted models', () => {
  it('gives the same conversation in-process and over HTTP through the OpenAI client', async () => {
    const local = await converse(new ScriptedLLMClient(script));
    server = await startOpenAICompatibleServer({ script });
    const remote = await converse(
      createOpenAIClient({ baseURL: server.url, apiKey: 'test', model: 'testkit-model' }),
    );

    expect(local.result.status).toBe('COMPLETED');
    expect(remote.result.output).toBe('It is sunny in Oslo and raining in Bergen.');
    expect(remote.result.output).toBe(local.result.output);
    expect(remote.result.usage).toEqual(local.result.usage);
    expect(withoutGenerated(remote.messages)).toEqual(withoutGenerated(local.messages));
    expect(local.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
  });

  it('shows the turn and the last message in the client error when the script runs out', async () => {
    server = await startOpenAICompatibleServer({ script: script.slice(0, 1) });
    const remote = createOpenAIClient({
      baseURL: server.url,
      apiKey: 'test',
      model: 'm',
      maxRetries: 0,
    });
    const { result } = await converse(remote);
    expect(result.status).toBe('FAILED');
    const messages: string[] = [];
    for (let e: unknown = result.error; e instanceof Error; e = e.cause) messages.push(e.message);
    const text = messages.join('\n');
    expect(text).toContain('no turn 2');
    expect(text).toContain('the last message of the request was tool: "raining"');
  });
});
