import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatWorkflow, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres, type TestPostgres } from '@skein/store-postgres/testing';
import {
  createWorker,
  createWorkerClient,
  type SkeinWorker,
  type WorkerClient,
} from '@skein/worker';
import { DefaultChatTransport, type UIMessage } from 'ai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage } from '../test-support/ai-reader.js';
import { GatedLLMClient } from '../test-support/gated-llm-client.js';
import { createWorkerChatHandler, type WorkerChatHandler } from './worker-chat-handler.js';

// One worker runs the threads; two chat servers (as two processes would: each its own client,
// pool, store and engine) serve `useChat`.

const ANSWER = 'The answer comes in many small words, and a reader who reloads sees all of them.';
let postgres: TestPostgres;
let worker: SkeinWorker;
let gated: GatedLLMClient;
const closers: (() => Promise<unknown>)[] = [];

interface ChatServer {
  readonly handler: WorkerChatHandler;
  readonly transport: DefaultChatTransport<UIMessage>;
  readonly url: string;
}

async function chatServer(): Promise<ChatServer> {
  const { connectionString } = postgres;
  const store = new PostgresCheckpointStore({ connectionString });
  const engine = new SkeinEngine({ llm: new ScriptedLLMClient(() => ({ content: '' })), store });
  engine.registerWorkflow(chatWorkflow());
  const client: WorkerClient = createWorkerClient({ connectionString });
  const pool = new pg.Pool({ connectionString, max: 4 });
  const handler = createWorkerChatHandler({ client, engine, pool });
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
  return {
    handler,
    url,
    transport: new DefaultChatTransport<UIMessage>({ api: `${url}/api/chat` }),
  };
}

beforeAll(async () => {
  postgres = await startTestPostgres();
  const store = new PostgresCheckpointStore({ connectionString: postgres.connectionString });
  await store.migrate();
  const model = new ScriptedLLMClient(
    (request) => ({ content: `re: ${request.messages.at(-1)?.content}` }),
    { stream: true },
  );
  gated = new GatedLLMClient(model, 'tell me slowly', ANSWER);
  const engine = new SkeinEngine({ llm: gated, store });
  engine.registerWorkflow(chatWorkflow());
  worker = await createWorker({
    engine,
    connectionString: postgres.connectionString,
    handleSignals: false,
  });
  closers.push(() => store.close());
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  // Each server's own order: its HTTP server, its handler's LISTEN connection, then the pool.
  for (const close of closers) await close().catch(() => {});
  await postgres?.stop();
}, 60_000);

const user = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

async function send(server: ChatServer, chatId: string, messages: UIMessage[]) {
  return server.transport.sendMessages({
    chatId,
    messages,
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
}

describe('chat servers in front of a worker', () => {
  it('streams an answer from server A; server B replays it mid-answer and follows it to the end', async () => {
    const a = await chatServer();
    const b = await chatServer();
    expect((await fetch(`${b.url}/api/chat/w1/stream`)).status).toBe(204);

    // A new chat, then its next turn (a send job for an ended thread).
    const first = await lastMessage((await send(a, 'w1', [user('u1', 'hi')])) as never);
    expect(first.parts.at(-1)).toMatchObject({ type: 'text', text: 're: hi' });
    const history = [user('u1', 'hi'), first, user('u2', 'tell me slowly')];
    const live = (await send(a, 'w1', history)) as unknown as ReadableStream<never>;
    // Read A's answer until its first words: the model is now held mid-answer at the gate.
    const [forA, probe] = live.tee();
    const reader = probe.getReader();
    for (;;) {
      const { value } = await reader.read();
      if ((value as { type?: string } | undefined)?.type === 'text-delta') break;
    }
    void reader.cancel();
    expect(gated.gatedCalls).toBe(1);

    const replay = await b.transport.reconnectToStream({ chatId: 'w1' });
    expect(replay).not.toBeNull();
    gated.open();
    const [fromA, fromB] = await Promise.all([
      lastMessage(forA as never),
      lastMessage(replay as never),
    ]);
    expect(fromA.id).toBe('u2-answer');
    expect(fromA.parts.filter((p) => p.type === 'text')).toEqual([
      { type: 'text', text: ANSWER, state: 'done' },
    ]);
    expect(fromB).toEqual(fromA);

    // Nothing runs now: both servers answer 204, and B lists the stored conversation.
    expect((await fetch(`${b.url}/api/chat/w1/stream`)).status).toBe(204);
    expect((await fetch(`${a.url}/api/chat/w1/stream`)).status).toBe(204);
    const { messages } = (await (await fetch(`${b.url}/api/chat/w1/messages`)).json()) as {
      messages: UIMessage[];
    };
    expect(messages.map((m) => m.id)).toEqual(['u1', 'u1-answer', 'u2', 'u2-answer']);
  }, 60_000);
});
