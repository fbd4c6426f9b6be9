import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { startOpenAICompatibleServer } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from './client/create-openai-client.js';

// An LLM node's `output: { schema }` through this client, against the testkit's server on
// 127.0.0.1: what the request body carried, and what became of the answer.

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function run(answers: string[], strict?: boolean) {
  const server = await startOpenAICompatibleServer({
    script: answers.map((content) => ({ content })),
  });
  closers.push(() => server.close());
  const llm = createOpenAIClient({ baseURL: server.url, apiKey: 'test', model: 'm' });
  const engine = new SkeinEngine({ llm });
  engine.registerWorkflow(
    new WorkflowBuilder('extract', '1')
      .start()
      .llm('extract', {
        prompt: 'Oslo is at 4 degrees.',
        output: { schema, name: 'weather', ...(strict === undefined ? {} : { strict }) },
        retry: { maxAttempts: 2, initialDelayMs: 1 },
      })
      .end('end')
      .chain('start', 'extract', 'end')
      .build(),
  );
  const { result } = await engine.run('extract');
  return { result, server };
}

describe('structured output through @skein/openai', () => {
  it('sends response_format json_schema and makes the parsed answer the output', async () => {
    const { result, server } = await run(['{"city":"Oslo","celsius":4}'], true);
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect((server.requests[0]!.body as Record<string, unknown>).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'weather', schema, strict: true },
    });
  });

  it('asks again when the answer does not match, with strict off by default', async () => {
    const { result, server } = await run(['{"city":"Oslo"}', '{"city":"Oslo","celsius":4}']);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(server.requests).toHaveLength(2);
    const format = (server.requests[1]!.body as Record<string, unknown>).response_format;
    expect(format).toMatchObject({ json_schema: { strict: false } });
  });
});
