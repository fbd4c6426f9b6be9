import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore, type SkeinEngine } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { PIXEL_PNG } from '../conformance/fixture-workflows.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { McpServerOptions } from '../server/mcp-server-options.js';
import type { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { connectInMemory } from '../test-support/connect.js';
import { testEngine } from '../test-support/workflows.js';

// A client of a server over an engine with a store reads the threads its calls started as
// resources, follows them by subscription, and completes their ids.

let server: SkeinMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(
  options: Partial<McpServerOptions> & {
    seed?: (engine: SkeinEngine) => McpServerOptions['createThread'];
  } = {},
) {
  const { seed, ...rest } = options;
  const engine = testEngine({ store: new InMemoryCheckpointStore() });
  const createThread = seed?.(engine);
  server = createMcpServer(engine, {
    name: 'threads',
    version: '1.0.0',
    ...rest,
    ...(createThread === undefined ? {} : { createThread }),
  });
  return { engine, client: await connectInMemory(server) };
}

async function start(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return (result.structuredContent as { threadId: string }).threadId;
}

async function readJson(client: Client, uri: string): Promise<unknown> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((contents[0] as { text: string }).text);
}

describe('threads as resources', () => {
  it('are offered as templates, with subscriptions and completions, beside no app publication', async () => {
    const { client } = await serve();
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true },
      completions: {},
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.uriTemplate, t.name, t.mimeType])).toEqual([
      ['skein://threads/{threadId}', 'thread', 'application/json'],
      ['skein://threads/{threadId}/checkpoints', 'thread_checkpoints', 'application/json'],
      ['skein://threads/{threadId}/attachments/{digest}', 'thread_attachment', undefined],
    ]);
    expect((await client.listResources()).resources).toEqual([]);
  });

  it('read as a transcript: status, output and messages of a thread a tool call ran', async () => {
    const { client } = await serve();
    const threadId = await start(client, 'greet', { name: 'Ada', tone: 'warm' });
    const transcript = (await readJson(client, `skein://threads/${threadId}`)) as {
      messages: { role: string; content: string }[];
    };
    expect(transcript).toMatchObject({
      threadId,
      workflowId: 'greet',
      status: 'COMPLETED',
      output: ['Ada', 'Dear Ada!'],
    });
    expect(transcript).not.toHaveProperty('pending');
    expect(transcript.messages.slice(-2)).toEqual([
      { role: 'user', content: 'Greet Ada warm' },
      { role: 'assistant', content: 'Dear Ada!' },
    ]);
  });

  it('say what a paused thread waits for, and show tool calls with their answers', async () => {
    const { client } = await serve();
    const trip = await start(client, 'trip');
    expect(await readJson(client, `skein://threads/${trip}`)).toMatchObject({
      status: 'PAUSED',
      pending: { kind: 'user-input', prompt: 'Which city?' },
      messages: [],
    });
    const booking = await start(client, 'booking', { message: 'Book Oslo' });
    const waiting = (await readJson(client, `skein://threads/${booking}`)) as {
      pending: { kind: string };
      messages: unknown[];
    };
    expect(waiting.pending).toMatchObject({ kind: 'tool-approval' });
    expect(waiting.messages.at(-1)).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_book', name: 'book_flight', arguments: '{"city":"Oslo"}' }],
    });
    await client.callTool({
      name: 'resume_thread',
      arguments: { threadId: booking, input: { approvals: { call_book: true } } },
    });
    const done = (await readJson(client, `skein://threads/${booking}`)) as {
      messages: unknown[];
    };
    expect(done).toMatchObject({ status: 'COMPLETED' });
    expect(done.messages.slice(-2)).toEqual([
      { role: 'tool', content: 'booked to Oslo', toolCallId: 'call_book' },
      { role: 'assistant', content: 'Done: booked to Oslo' },
    ]);
  });

  it("list a thread's checkpoints as the engine's history has them", async () => {
    const { client, engine } = await serve();
    const threadId = await start(client, 'greet', { name: 'Ada', tone: 'plain' });
    const listed = (await readJson(client, `skein://threads/${threadId}/checkpoints`)) as {
      id: string;
      sequence: number;
      status: string;
    }[];
    const history = await engine.history(threadId);
    expect(listed.map((c) => c.id)).toEqual(history.map((h) => h.checkpointId));
    expect(listed.map((c) => c.sequence)).toEqual(
      [...listed.map((c) => c.sequence)].sort((a, b) => a - b),
    );
    expect(listed.at(-1)).toMatchObject({ status: 'COMPLETED' });
    expect(Object.keys(listed[0]!).sort()).toEqual(
      ['createdAt', 'id', 'nodeId', 'sequence', 'status', 'step'].sort(),
    );
  });

  it('name media parts by the URI their bytes are read at, as a blob of their type', async () => {
    const { client } = await serve({
      // The thread opens with an image the user sent: the store keeps it as an attachment.
      seed: (engine) => (workflowId, options) =>
        engine.createThread(workflowId, {
          ...options,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'This is ' },
                { type: 'text', text: 'me' },
                { type: 'image', mediaType: 'image/png', data: PIXEL_PNG },
              ],
            },
          ],
        }),
    });
    const threadId = await start(client, 'greet', { name: 'Ada', tone: 'warm' });
    const { messages } = (await readJson(client, `skein://threads/${threadId}`)) as {
      messages: { content: string }[];
    };
    const seeded = messages.find((m) => m.content.startsWith('This is me'))!;
    const [, uri] = /^This is me\n\[image image\/png (\S+)\]$/.exec(seeded.content) ?? [];
    expect(uri).toMatch(
      new RegExp(`^skein://threads/${threadId}/attachments/sha256:[0-9a-f]{64}$`),
    );
    for (const asked of [uri!, uri!.replace('sha256:', 'sha256%3A')])
      expect((await client.readResource({ uri: asked })).contents).toEqual([
        { uri: asked, mimeType: 'image/png', blob: PIXEL_PNG },
      ]);
    // Its bytes never change: a subscription is taken, and never told anything.
    await client.subscribeResource({ uri: uri! });
    const unknown = uri!.replace(/[0-9a-f]{64}$/, '0'.repeat(64));
    await expect(client.readResource({ uri: unknown })).rejects.toThrow(/-32002/);
  });
});

describe('a subscription to a thread', () => {
  it('is told of each checkpoint the thread stores once it moves on, until unsubscribed', async () => {
    const { client } = await serve();
    const first = await start(client, 'trip');
    const second = await start(client, 'trip');
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    const uri = `skein://threads/${first}`;
    const stored = async () => ((await readJson(client, `${uri}/checkpoints`)) as unknown[]).length;
    const paused = await stored();
    await client.subscribeResource({ uri });
    await client.subscribeResource({ uri });
    await client.subscribeResource({ uri: `${uri}/checkpoints` });
    await client.callTool({ name: 'resume_thread', arguments: { threadId: first, input: 'Rome' } });
    const added = (await stored()) - paused;
    expect(added).toBeGreaterThan(0);
    // One notice per checkpoint stored, for each URI: subscribing twice is one subscription.
    const told = (u: string) => updated.filter((v) => v === u).length;
    await expect.poll(() => [told(uri), told(`${uri}/checkpoints`)]).toEqual([added, added]);
    expect(await readJson(client, uri)).toMatchObject({ status: 'COMPLETED' });

    await client.unsubscribeResource({ uri: `skein://threads/${second}` });
    await client.subscribeResource({ uri: `skein://threads/${second}` });
    await client.unsubscribeResource({ uri: `skein://threads/${second}` });
    const before = updated.length;
    await client.callTool({
      name: 'resume_thread',
      arguments: { threadId: second, input: 'Oslo' },
    });
    // A ping after the run: a notice sent during it would have come first.
    await client.ping();
    expect(updated.length).toBe(before);
  });

  it("ends with the connection: the engine's events are no longer listened to", async () => {
    const { client, engine } = await serve();
    const threadId = await start(client, 'trip');
    expect(engine.events.listenerCount('checkpoint:saved')).toBe(0);
    await client.subscribeResource({ uri: `skein://threads/${threadId}` });
    expect(engine.events.listenerCount('checkpoint:saved')).toBe(1);
    await client.close();
    await expect.poll(() => engine.events.listenerCount('checkpoint:saved')).toBe(0);
  });
});

describe('completing a thread id', () => {
  it('offers the ids of the threads the caller may see that start with what was typed', async () => {
    const { client, engine } = await serve({ workflows: ['greet', 'trip'] });
    const ids = [await start(client, 'trip'), await start(client, 'greet', { name: 'A' })];
    // Another workflow's thread, in the same store, is none of this server's.
    await engine.run('booking', { input: 'Book Rome' });
    const complete = (uri: string, name: string, value: string) =>
      client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value } });
    const all = await complete('skein://threads/{threadId}', 'threadId', '');
    expect([...all.completion.values].sort()).toEqual([...ids].sort());
    expect(all.completion).toMatchObject({ total: 2, hasMore: false });
    const typed = ids[0]!.slice(0, 13);
    const one = await complete('skein://threads/{threadId}/checkpoints', 'threadId', typed);
    expect(one.completion.values).toEqual(ids.filter((id) => id.startsWith(typed)));
    const digest = await complete(
      'skein://threads/{threadId}/attachments/{digest}',
      'digest',
      'sha256:',
    );
    expect(digest.completion.values).toEqual([]);
    await expect(complete('skein://threads/{threadId}', 'digest', '')).rejects.toThrow(/-32602/);
  });
});
