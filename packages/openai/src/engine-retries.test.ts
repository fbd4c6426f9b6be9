import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from './client/create-openai-client.js';

// Retries happen in one layer, the engine's LLM node (default policy: 3 attempts), and only for
// errors that say a new request can succeed. Counted at a real HTTP server.

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runAgainst(status: number) {
  server = await startOpenAICompatibleServer({
    script: [{ content: 'never' }],
    quirks: { failBeforeSuccess: { status, times: 1_000 } },
  });
  const llm = createOpenAIClient({ baseURL: server.url, apiKey: 'test', model: 'testkit-model' });
  const engine = new SkeinEngine({ llm });
  engine.registerWorkflow(
    new WorkflowBuilder('ask', '1')
      .start()
      .llm('ask')
      .end('end')
      .chain('start', 'ask', 'end')
      .build(),
  );
  const { result } = await engine.run('ask', { input: 'hello' });
  return result;
}

describe('@skein/openai retries inside a @skein/core workflow', () => {
  it('spends at most 3 requests on an HTTP 503 that persists', async () => {
    const result = await runAgainst(503);
    expect(result.status).toBe('FAILED');
    expect(server!.requests.length).toBeGreaterThanOrEqual(1);
    expect(server!.requests.length).toBeLessThanOrEqual(3);
  });

  it('spends exactly 1 request on an HTTP 400', async () => {
    const result = await runAgainst(400);
    expect(result.status).toBe('FAILED');
    expect(server!.requests).toHaveLength(1);
  });
});
