import { startOpenAICompatibleServer } from '@skein/testkit';
import { describe, expect, it } from 'vitest';
import { loadStreamFixtures } from '../test-support/fixtures.js';
import { createOpenAIClient } from './create-openai-client.js';

describe('every recorded stream through the real openai client and the testkit server', () => {
  it.each(loadStreamFixtures().map((f) => [f.file, f] as const))('%s', async (_, fixture) => {
    const server = await startOpenAICompatibleServer({ script: [{ fixture: fixture.path }] });
    try {
      const client = createOpenAIClient({
        baseURL: server.url,
        apiKey: 'test',
        model: 'm',
        maxRetries: 0,
      });
      const warnings: string[] = [];
      const response = await client.generate(
        {
          threadId: 't',
          nodeId: 'n',
          messages: [{ role: 'user', content: 'go' }],
          tools: fixture.expected.tool_calls.map((c) => ({
            name: c.function.name,
            description: '',
            parameters: { type: 'object' },
          })),
        },
        { onEvent: (e) => e.type === 'warning' && warnings.push(e.code) },
      );
      expect(response.message.toolCalls ?? []).toEqual(
        fixture.expected.tool_calls.map((c) => ({
          id: c.id,
          name: c.function.name,
          arguments: c.function.arguments,
        })),
      );
      expect(response.finishReason).toBe(
        fixture.expected.tool_calls.length > 0 ? 'tool_calls' : 'stop',
      );
      expect(response.usage !== undefined).toBe(fixture.expected.usage_present);
      expect(warnings).toEqual([]);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
