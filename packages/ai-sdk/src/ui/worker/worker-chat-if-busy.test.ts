import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatWorkflow, defineTool, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText, type LLMRequest } from '@skein/spec';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres, type TestPostgres } from '@skein/store-postgres/testing';
import { createWorker, createWorkerClient, type SkeinWorker } from '@skein/worker';
import { DefaultChatTransport, type UIMessage } from 'ai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatIfBusy } from '../chat-if-busy.js';
import { lastMessage } from '../test-support/ai-reader.js';
import { createWorkerChatHandler } from './worker-chat-handler.js';

// A second message while a worker's thread answers the first (decision 0036), with chat servers
// in front: the first answer is held in its tool until the test lets it go, so every step
// happens in an order the test fixes (no timing).

/** A promise with its resolver. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let postgres: TestPostgres;
let worker: SkeinWorker;
let workerStore: PostgresCheckpointStore;
/** The model the worker calls: what it was sent is in `requests`. */
let model: ScriptedLLMClient;
/** The `lookup` tool's run: `started` once it runs, and it returns once `done` is resolved. */
let tool = { started: signal(), done: signal() };
/** Resolved each time the worker posts a message to a thread's inbox. */
let posts: (() => void)[] = [];
const posted = () => new Promise<void>((resolve) => posts.push(resolve));
const closers: (() => Promise<unknown>)[] = [];

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks something up',
  parameters: {
    type: 'object',
    properties: { q: { type: 'string' } },
    required: ['q'],
    additionalProperties: false,
  },
  execute: async ({ q }: { q: string }) => {
    tool.started.resolve();
    await tool.done.promise;
    return `found ${q}`;
  },
});

function registerChat(engine: SkeinEngine): void {
  engine.registerTool(lookup);
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.', tools: ['lookup'] }));
}

beforeAll(async () => {
  postgres = await startTestPostgres();
  const { connectionString } = postgres;
  workerStore = new PostgresCheckpointStore({ connectionString });
  await workerStore.migrate();
  const post = workerStore.postMessage.bind(workerStore);
  workerStore.postMessage = async (threadId, message) => {
    const stored = await post(threadId, message);
    for (const call of posts) call();
    posts = [];
    return stored;
  };
  // `look it up` calls the tool; after it (or any other message) the answer is `re: <the last
  // user message>`, so a message steered into the turn shows in its answer.
  model = new ScriptedLLMClient(
    (request: LLMRequest) => {
      const lastUser = request.messages.filter((m) => m.role === 'user').at(-1);
      const text = lastUser ? contentText(lastUser.content) : '';
      if (request.messages.at(-1)?.role === 'user' && text === 'look it up')
        return { toolCalls: [{ id: 'call-lookup', name: 'lookup', arguments: { q: 'x' } }] };
      return { content: `re: ${text}` };
    },
    { stream: true },
  );
  const engine = new SkeinEngine({ llm: model, store: workerStore });
  registerChat(engine);
  worker = await createWorker({ engine, connectionString, handleSignals: false });
}, 60_000);

afterAll(async () => {
  tool.done.resolve();
  await worker?.stop();
  for (const close of closers) await close().catch(() => {});
  await workerStore?.close();
  await postgres?.stop();
}, 60_000);

/** A chat server in front of the worker (as another process would be: its own pool, client, store). */
async function chatServer(ifBusy?: ChatIfBusy) {
  const { connectionString } = postgres;
  const store = new PostgresCheckpointStore({ connectionString });
  const engine = new SkeinEngine({ llm: new ScriptedLLMClient(() => ({ content: '' })), store });
  registerChat(engine);
  const client = createWorkerClient({ connectionString });
  const pool = new pg.Pool({ connectionString, max: 4 });
  const handler = createWorkerChatHandler({
    client,
    engine,
    pool,
    ...(ifBusy ? { ifBusy } : {}),
  });
  const server: Server = createServer((req, res) => void handler.node(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
    () => handler.close(),
    () => client.close(),
    () => pool.end(),
    () => store.close(),
  );
  const transport = new DefaultChatTransport<UIMessage>({ api: `${url}/api/chat` });
  const send = (chatId: string, messages: UIMessage[]) =>
    transport.sendMessages({
      chatId,
      messages,
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
  return { url, transport, send };
}

const user = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});
/** What `useChat` holds of an answer still streaming when the user sends again. */
const partial = (id: string): UIMessage => ({
  id,
  role: 'assistant',
  parts: [{ type: 'step-start' }],
});
const secondHistory = [user('u1', 'look it up'), partial('u1-answer'), user('u2', 'second')];

const textOf = (message: UIMessage) =>
  message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');

/** The thread's stored messages after its system prompt: contents, a tool call as `calls`. */
async function stored(chatId: string) {
  const thread = await workerStore.load(chatId);
  return thread!.conversation.messages
    .filter((m) => m.role !== 'system')
    .map((m) => (m.toolCalls ? 'calls' : contentText(m.content)));
}

/** Starts the chat's first answer on server `a` and holds it in its tool. */
async function holdFirstAnswer(a: Awaited<ReturnType<typeof chatServer>>, chatId: string) {
  tool = { started: signal(), done: signal() };
  const first = await a.send(chatId, [user('u1', 'look it up')]);
  await tool.started.promise;
  return first;
}

describe('a second message while a worker answers (ifBusy)', () => {
  it('queue (default): both answers in order, each message stored once; a reader on another server keeps the first answer whole', async () => {
    const a = await chatServer();
    const b = await chatServer();
    const first = await holdFirstAnswer(a, 'wq1');
    // A reader on B follows the first answer before the second message's run begins, and
    // another after: both follow the answer streaming now, the first.
    const before = await b.transport.reconnectToStream({ chatId: 'wq1' });
    expect(before).not.toBeNull();
    const post = posted();
    const second = await a.send('wq1', secondHistory);
    await post;
    const after = await b.transport.reconnectToStream({ chatId: 'wq1' });
    expect(after).not.toBeNull();
    tool.done.resolve();
    const [fromA, fromBBefore, fromBAfter, answer] = await Promise.all([
      lastMessage(first as never),
      lastMessage(before as never),
      lastMessage(after as never),
      lastMessage(second as never),
    ]);
    expect(fromA.id).toBe('u1-answer');
    expect(fromA.parts.find((p) => p.type === 'tool-lookup')).toMatchObject({
      state: 'output-available',
      output: 'found x',
    });
    expect(textOf(fromA)).toBe('re: look it up');
    expect(fromBBefore).toEqual(fromA);
    expect(fromBAfter).toEqual(fromA);
    // The second stream is the turn that took its message, none of the first.
    expect(answer.id).toBe('u2-answer');
    expect(answer.parts.some((p) => p.type === 'tool-lookup')).toBe(false);
    expect(textOf(answer)).toBe('re: second');
    expect(await stored('wq1')).toEqual([
      'look it up',
      'calls',
      'found x',
      're: look it up',
      'second',
      're: second',
    ]);
    expect((await fetch(`${b.url}/api/chat/wq1/stream`)).status).toBe(204);
  }, 60_000);

  it("steer: the running turn's next model call sees the message; its stream starts where it joined", async () => {
    const a = await chatServer('steer');
    const first = await holdFirstAnswer(a, 'ws1');
    const post = posted();
    const second = await a.send('ws1', secondHistory);
    await post;
    tool.done.resolve();
    const [fromA, answer] = await Promise.all([
      lastMessage(first as never),
      lastMessage(second as never),
    ]);
    const calls = model.requests.filter((r) => r.threadId === 'ws1');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'second' });
    expect(fromA.parts.some((p) => p.type === 'tool-lookup')).toBe(true);
    expect(textOf(fromA)).toBe('re: second');
    expect(answer.id).toBe('u2-answer');
    expect(answer.parts.some((p) => p.type === 'tool-lookup')).toBe(false);
    expect(textOf(answer)).toBe('re: second');
    expect(await stored('ws1')).toEqual(['look it up', 'calls', 'found x', 'second', 're: second']);
  }, 60_000);

  it('reject: the second message is refused with 409 CHAT_BUSY, on this server and another', async () => {
    const a = await chatServer('reject');
    const b = await chatServer('reject');
    const first = await holdFirstAnswer(a, 'wr1');
    for (const server of [a, b]) {
      const refused = await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'wr1', messages: secondHistory, trigger: 'submit-message' }),
      });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ error: { code: 'CHAT_BUSY' } });
    }
    tool.done.resolve();
    expect(textOf(await lastMessage(first as never))).toBe('re: look it up');
    expect(await workerStore.pendingMessages('wr1')).toEqual([]);
    expect(await stored('wr1')).toEqual(['look it up', 'calls', 'found x', 're: look it up']);
  }, 60_000);

  it('refuses an unknown ifBusy when the handler is made', () => {
    const engine = new SkeinEngine({
      llm: new ScriptedLLMClient(() => ({ content: '' })),
      store: workerStore,
    });
    expect(() =>
      createWorkerChatHandler({
        client: {} as never,
        engine,
        pool: {} as never,
        ifBusy: 'later' as never,
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'ifBusy' }));
  });
});
