import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { testEngine } from '../test-support/workflows.js';
import { createMcpServer } from './create-mcp-server.js';
import type { McpServerOptions } from './mcp-server-options.js';
import type { SkeinMcpServer } from './skein-mcp-server.js';

// createMcpServer behind a transport that carries verified tokens (as the MCP SDK's own
// requireBearerAuth gives them to its Streamable HTTP transport): the token's caller owns the
// threads its calls start.

const servers: SkeinMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const token = (sub: string | undefined, clientId = 'app'): AuthInfo => ({
  token: `t-${sub}`,
  clientId,
  scopes: [],
  ...(sub === undefined ? {} : { extra: { sub } }),
});

/** A client whose every message reaches the server with `auth`, as a verified token. */
async function clientAs(server: SkeinMcpServer, auth: AuthInfo): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => send(message, { ...options, authInfo: auth });
  await server.connect(serverSide);
  const client = new Client({ name: 'token-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const text = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

function serve(options: Partial<McpServerOptions> = {}) {
  const store = new InMemoryCheckpointStore();
  const engine = testEngine({ store });
  const make = () => {
    const server = createMcpServer(engine, { name: 't', version: '1', ...options });
    servers.push(server);
    return server;
  };
  return { store, make };
}

describe('createMcpServer with verified tokens', () => {
  it("gives a token's subject (else its client) the threads its calls start, and no one else's", async () => {
    const { store, make } = serve();
    const ada = await clientAs(make(), token('ada'));
    const bob = await clientAs(make(), token('bob'));
    const robot = await clientAs(make(), token(undefined, 'cron-job'));
    const paused = (await ada.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    expect((await store.load(threadId))!.state.principal).toBe('ada');
    for (const other of [bob, robot])
      expect(text(await other.callTool({ name: 'get_thread', arguments: { threadId } }))).toMatch(
        /^THREAD_NOT_FOUND: /,
      );
    const own = (await robot.callTool({ name: 'greet', arguments: {} })) as CallToolResult;
    const robots = (own.structuredContent as { threadId: string }).threadId;
    expect((await store.load(robots))!.state.principal).toBe('cron-job');
  });

  it('refuses a call when principalOf names no caller, or a createThread drops the principal', async () => {
    const { store, make } = serve({
      principalOf: (auth) => (auth.clientId === 'ok' ? 'ada' : undefined),
    });
    const nobody = await clientAs(make(), token('x', 'unknown-app'));
    expect(text(await nobody.callTool({ name: 'greet', arguments: {} }))).toMatch(
      /^PRINCIPAL_INVALID: /,
    );
    expect(await store.listThreads()).toEqual([]);

    const careless = serve({
      createThread: (id, o) => testEngine().createThread(id, { threadId: o.threadId }),
    });
    const ada = await clientAs(careless.make(), token('ada'));
    expect(text(await ada.callTool({ name: 'greet', arguments: {} }))).toMatch(
      /^THREAD_PRINCIPAL_MISMATCH: createThread built a thread for undefined, not for the caller/,
    );
  });
});
