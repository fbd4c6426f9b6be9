import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { conformancePublications } from '../conformance/fixture-publications.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { McpServerOptions } from '../server/mcp-server-options.js';
import type { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { connectInMemory } from '../test-support/connect.js';
import { testEngine } from '../test-support/workflows.js';

// What a client (or an app) could get wrong about thread URIs: every URI that is not a thread
// this caller may see is the publications' "resource not found", and nothing is changed by asking.

let server: SkeinMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const UNKNOWN = '0b0e8a52-4c3e-4a2f-9d8e-6c1f0e2d3a4b';
const DIGEST = `sha256:${'a'.repeat(64)}`;

async function serve(options: Partial<McpServerOptions> = {}, store = true) {
  const storage = new InMemoryCheckpointStore();
  const engine = testEngine(store ? { store: storage } : {});
  server = createMcpServer(engine, { name: 'hostile', version: '1.0.0', ...options });
  return { engine, store: storage, client: await connectInMemory(server) };
}

async function startTrip(client: Client): Promise<string> {
  const paused = (await client.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
  return (paused.structuredContent as { threadId: string }).threadId;
}

async function refusedEverywhere(client: Client, uri: string): Promise<void> {
  const notFound = `MCP error -32002: Resource not found: ${uri}`;
  await expect(client.readResource({ uri }), uri).rejects.toThrow(notFound);
  await expect(client.subscribeResource({ uri }), uri).rejects.toThrow(notFound);
}

describe('thread URIs a client gets wrong', () => {
  it('are not found, malformed or unknown alike, and leave every thread as it was', async () => {
    const { client, store } = await serve();
    const threadId = await startTrip(client);
    const before = await store.listStates(threadId);
    const base = `skein://threads/${threadId}`;
    for (const uri of [
      `skein://threads/${UNKNOWN}`,
      `skein://threads/${UNKNOWN}/checkpoints`,
      `skein://threads/${UNKNOWN}/attachments/${DIGEST}`,
      'skein://threads/',
      'skein://threads/not-a-uuid',
      `skein://threads/${threadId.toUpperCase()}`,
      `${base}/`,
      `${base}?x=1`,
      `${base}#top`,
      `${base}/checkpoints/1`,
      `${base}/messages`,
      // A branch's own id is its parent's with a path: never one handed out, never found.
      `${base}/planners/0`,
      // An output file's URI names where it came from; it is no resource to read.
      `${base}/files/0/report.pdf`,
      `${base}/attachments/${'a'.repeat(64)}`,
      `${base}/attachments/sha256:${'A'.repeat(64)}`,
      `${base}/attachments/%E0%A4%A`,
      `${base}/attachments/${DIGEST}`,
      `skein://threads/../threads/${threadId}`,
      `skein://threads/${encodeURIComponent(threadId)}%2Fcheckpoints`,
    ])
      await refusedEverywhere(client, uri);
    // The scheme and authority in any case are still the server's: not found, not an app's.
    await refusedEverywhere(client, `SKEIN://Threads/${UNKNOWN}`);
    expect(await store.listStates(threadId)).toEqual(before);
    expect((await store.listThreads()).map((t) => t.threadId)).toEqual([threadId]);
  });

  it('a thread of a workflow the server does not offer is not found, even by its id', async () => {
    const { client, engine } = await serve({ workflows: ['greet'] });
    await engine.run('trip', { threadId: UNKNOWN });
    await refusedEverywhere(client, `skein://threads/${UNKNOWN}`);
    await refusedEverywhere(client, `skein://threads/${UNKNOWN}/checkpoints`);
    const { completion } = await client.complete({
      ref: { type: 'ref/resource', uri: 'skein://threads/{threadId}' },
      argument: { name: 'threadId', value: '' },
    });
    expect(completion.values).toEqual([]);
  });

  it('a template variable or template that is not there is -32602 in completion', async () => {
    const { client } = await serve();
    await expect(
      client.complete({
        ref: { type: 'ref/resource', uri: 'skein://threads/{threadId}' },
        argument: { name: 'id', value: '' },
      }),
    ).rejects.toThrow(/-32602.*no variable "id"/);
    await expect(
      client.complete({
        ref: { type: 'ref/resource', uri: 'skein://threads/{id}' },
        argument: { name: 'id', value: '' },
      }),
    ).rejects.toThrow(/-32602/);
  });
});

describe('thread resources beside an app’s publications', () => {
  it('follow the app’s templates, whose resources still answer as before', async () => {
    const { client } = await serve({ publish: conformancePublications() });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'test://template/{id}/data',
      'skein://threads/{threadId}',
      'skein://threads/{threadId}/checkpoints',
      'skein://threads/{threadId}/attachments/{digest}',
    ]);
    expect((await client.readResource({ uri: 'test://template/7/data' })).contents).toHaveLength(1);
    await refusedEverywhere(client, `skein://threads/${UNKNOWN}`);
    const { completion } = await client.complete({
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '' },
    });
    expect(completion.hasMore).toBe(false);
  });

  it('cannot be published by the app: its URIs and templates under skein://threads/ are refused', async () => {
    const read = () => ({ type: 'text' as const, text: 'x' });
    const cases: [McpServerOptions['publish'], string][] = [
      [
        { resources: [{ uri: 'skein://threads/mine', name: 'm', read }] },
        'publish.resources[0].uri',
      ],
      [
        {
          resources: [{ uri: 'app://ok', name: 'ok', read }],
          resourceTemplates: [{ uriTemplate: 'SKEIN://Threads/{id}', name: 't', read }],
        },
        'publish.resourceTemplates[0].uriTemplate',
      ],
    ];
    for (const [publish, field] of cases) {
      const engine = testEngine({ store: new InMemoryCheckpointStore() });
      let thrown: unknown;
      try {
        createMcpServer(engine, { name: 'app', version: '1', ...(publish ? { publish } : {}) });
      } catch (error) {
        thrown = error;
      }
      expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({
        argument: field,
        message: expect.stringMatching(/under skein:\/\/threads\/, which the server keeps/),
      });
    }
  });
});

describe('a server whose engine has no store', () => {
  it('serves no thread resources: no capability, no templates', async () => {
    const { client } = await serve({}, false);
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    expect(client.getServerCapabilities()?.completions).toBeUndefined();
    await server?.close();
    const withApp = await serve({ publish: conformancePublications() }, false);
    const { resourceTemplates } = await withApp.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data']);
    await refusedEverywhere(withApp.client, `skein://threads/${UNKNOWN}`);
  });
});
