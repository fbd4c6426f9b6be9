import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { testClient } from '../test-support/connect.js';
import { testEngine } from '../test-support/workflows.js';
import { listenMcpHttp, type RunningMcpHttpServer } from './listen.js';

// The app's own way of naming callers (here an API key header a gateway of its sets), instead
// of OAuth: the same ownership of threads and sessions.

const KEYS: Record<string, string> = { 'key-ada': 'ada', 'key-bob': 'bob' };
let running: RunningMcpHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function connect(url: string, key: string) {
  const client = testClient();
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { 'x-api-key': key } },
    }),
  );
  return client;
}

const text = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('MCP over HTTP with authorize', () => {
  it("names callers by the app's hook: 401 for no one, and each caller's threads its own", async () => {
    const store = new InMemoryCheckpointStore();
    running = await listenMcpHttp(testEngine({ store }), {
      name: 'keys',
      version: '1.0.0',
      authorize: (request) => KEYS[request.headers.get('x-api-key') ?? ''],
    });
    const refused = await fetch(running.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([
      401,
      'Bearer realm="skein"',
    ]);

    const ada = await connect(running.url, 'key-ada');
    const bob = await connect(running.url, 'key-bob');
    const paused = (await ada.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    expect((await store.load(threadId))!.state.principal).toBe('ada');
    for (const [name, args] of [
      ['get_thread', { threadId }],
      ['resume_thread', { threadId, input: 'Paris' }],
    ] as const)
      expect(text(await bob.callTool({ name, arguments: args }))).toMatch(/^THREAD_NOT_FOUND: /);
    const done = (await ada.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: 'Rome' },
    })) as CallToolResult;
    expect(done.structuredContent).toMatchObject({ status: 'COMPLETED', output: 'Plan for Rome' });
    await ada.close();
    await bob.close();
  });
});
