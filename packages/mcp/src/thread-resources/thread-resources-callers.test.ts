import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  type CallToolResult,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { listenMcpHttp, type RunningMcpHttpServer } from '../http/listen.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import { testClient } from '../test-support/connect.js';
import { testEngine } from '../test-support/workflows.js';

// Over Streamable HTTP with callers named by the app's `authorize` (and over a transport that
// hands the server verified tokens): each caller reads, follows and completes its own threads,
// and another's are "resource not found" as if not there.

const KEYS: Record<string, string> = { 'key-ada': 'ada', 'key-bob': 'bob' };
let running: RunningMcpHttpServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await running?.close();
  running = undefined;
});

async function serve() {
  const store = new InMemoryCheckpointStore();
  const engine = testEngine({ store });
  running = await listenMcpHttp(engine, {
    name: 'keys',
    version: '1.0.0',
    authorize: (request) => KEYS[request.headers.get('x-api-key') ?? ''],
  });
  const url = running.url;
  const as = async (key: string) => {
    const client = testClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { 'x-api-key': key } },
      }),
    );
    clients.push(client);
    return client;
  };
  return { engine, store, ada: await as('key-ada'), bob: await as('key-bob') };
}

async function startTrip(client: Client): Promise<string> {
  const paused = (await client.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
  return (paused.structuredContent as { threadId: string }).threadId;
}

const completeId = (client: Client, value = '') =>
  client.complete({
    ref: { type: 'ref/resource', uri: 'skein://threads/{threadId}' },
    argument: { name: 'threadId', value },
  });

describe('threads as resources, to callers over HTTP', () => {
  it("are each caller's own: another's thread is not found to read, subscribe or complete", async () => {
    const { engine, store, ada, bob } = await serve();
    const threadId = await startTrip(ada);
    const uri = `skein://threads/${threadId}`;
    const own = (await ada.readResource({ uri })).contents[0] as { text: string };
    expect(JSON.parse(own.text)).toMatchObject({ threadId, status: 'PAUSED' });
    const listed = (await ada.readResource({ uri: `${uri}/checkpoints` })).contents[0] as {
      text: string;
    };
    expect(JSON.parse(listed.text)).toHaveLength((await engine.history(threadId)).length);
    const saved = await store.listThreads();
    for (const asked of [uri, `${uri}/checkpoints`]) {
      await expect(bob.readResource({ uri: asked })).rejects.toThrow(
        `MCP error -32002: Resource not found: ${asked}`,
      );
      await expect(bob.subscribeResource({ uri: asked })).rejects.toThrow(/-32002/);
    }
    expect((await completeId(ada)).completion.values).toEqual([threadId]);
    expect((await completeId(bob)).completion.values).toEqual([]);
    // A thread of no one (the app's own, on the engine) is none of a caller's either.
    const { thread } = await engine.run('trip', { threadId: randomUUID() });
    await expect(ada.readResource({ uri: `skein://threads/${thread.threadId}` })).rejects.toThrow(
      /-32002/,
    );
    expect((await completeId(ada)).completion.values).toEqual([threadId]);
    expect(await store.listThreads()).toEqual([
      ...saved,
      expect.objectContaining({ threadId: thread.threadId }),
    ]);
  });

  it('tell a subscribed caller when its thread moves on', async () => {
    const { ada } = await serve();
    const threadId = await startTrip(ada);
    const updated: string[] = [];
    ada.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    const uri = `skein://threads/${threadId}`;
    await ada.subscribeResource({ uri });
    await ada.callTool({ name: 'resume_thread', arguments: { threadId, input: 'Lima' } });
    await expect.poll(() => updated.includes(uri)).toBe(true);
    const read = (await ada.readResource({ uri })).contents[0] as { text: string };
    expect(JSON.parse(read.text)).toMatchObject({ status: 'COMPLETED', output: 'Plan for Lima' });
  });
});

describe('threads as resources, to callers of verified tokens', () => {
  it("give each token's caller its own threads only", async () => {
    const engine = testEngine({ store: new InMemoryCheckpointStore() });
    const server = createMcpServer(engine, { name: 't', version: '1' });
    // Every message of the client reaches the server with `auth`, as a verified token.
    const asToken = async (sub: string) => {
      const auth: AuthInfo = { token: `t-${sub}`, clientId: 'app', scopes: [], extra: { sub } };
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const send = clientSide.send.bind(clientSide);
      clientSide.send = (message, options) => send(message, { ...options, authInfo: auth });
      await server.connect(serverSide);
      const client = testClient();
      await client.connect(clientSide);
      clients.push(client);
      return client;
    };
    // One server, connected again after each client: each caller in turn.
    const ada = await asToken('ada');
    const threadId = await startTrip(ada);
    const uri = `skein://threads/${threadId}`;
    expect((await ada.readResource({ uri })).contents).toHaveLength(1);
    await ada.close();
    const bob = await asToken('bob');
    await expect(bob.readResource({ uri })).rejects.toThrow(/-32002/);
    expect((await completeId(bob)).completion.values).toEqual([]);
    // The server's first connection closed: the next one still follows its caller's threads.
    const own = await startTrip(bob);
    const updated: string[] = [];
    bob.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await bob.subscribeResource({ uri: `skein://threads/${own}` });
    await bob.callTool({ name: 'resume_thread', arguments: { threadId: own, input: 'Oslo' } });
    await expect.poll(() => updated.includes(`skein://threads/${own}`)).toBe(true);
    await server.close();
  });
});
