import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatWorkflow, defineTool, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { bearerToken } from '@skein/http';
import { contentText, decodeBase64, toolOutput } from '@skein/spec';
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
import { base64Of, PDF_BYTES, pngBytes } from '../../test-support/media-bytes.js';
import { lastMessage } from '../test-support/ai-reader.js';
import { answerApprovals, callAs } from '../test-support/as-caller.js';
import { GatedLLMClient } from '../test-support/gated-llm-client.js';
import {
  createWorkerChatHandler,
  type WorkerChatHandler,
  type WorkerChatHandlerOptions,
} from './worker-chat-handler.js';

// One worker runs the threads; two chat servers (as two processes would: each its own client,
// pool, store and engine) serve `useChat`.

const ANSWER = 'The answer comes in many small words, and a reader who reloads sees all of them.';
const HELD = 'An answer held half-way while another user tries to read or stop it.';
let postgres: TestPostgres;
let worker: SkeinWorker;
let gated: GatedLLMClient;
let held: GatedLLMClient;
/** Holds the answer after the chart was drawn, half-way. */
let drawn: GatedLLMClient;
/** The model every thread's calls reach, on the worker: what it was sent is in `requests`. */
let model: ScriptedLLMClient;
/** Amounts the `pay` tool paid, on the worker. */
const payments: number[] = [];

/** Pays: a person approves it first. A chat of workflow `pay-chat` may call it. */
const pay = defineTool({
  name: 'pay',
  description: 'Pays an amount',
  parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
  needsApproval: true,
  execute: async ({ amount }: { amount: number }) => {
    payments.push(amount);
    return { paid: amount };
  },
});

/** A chart a tool draws: an image the thread's store keeps once, by digest. */
const CHART = pngBytes(0, 0, 0, 13, 9, 8, 7, 6, 5);
const DRAWN = 'The chart shows the sales of each month, and this sentence arrives in two halves.';

/** Draws the chart: a tool whose result holds an image. */
const chart = defineTool({
  name: 'chart',
  description: 'Draws the chart',
  parameters: { type: 'object', properties: {} },
  execute: async () =>
    toolOutput({
      content: [
        { type: 'text', text: 'the chart' },
        { type: 'image', mediaType: 'image/png', data: CHART },
      ],
    }),
});

/** The chat workflows every process registers: the plain chat, one that may pay, one that draws. */
function registerChats(engine: SkeinEngine): void {
  engine.registerTool(pay);
  engine.registerTool(chart);
  engine.registerWorkflow(chatWorkflow());
  engine.registerWorkflow(chatWorkflow({ id: 'pay-chat', tools: ['pay'] }));
  engine.registerWorkflow(chatWorkflow({ id: 'chart-chat', tools: ['chart'] }));
}
const closers: (() => Promise<unknown>)[] = [];

interface ChatServer {
  readonly handler: WorkerChatHandler;
  readonly transport: DefaultChatTransport<UIMessage>;
  readonly url: string;
}

async function chatServer(
  options: Partial<WorkerChatHandlerOptions> = {},
  token?: string,
): Promise<ChatServer> {
  const { connectionString } = postgres;
  const store = new PostgresCheckpointStore({ connectionString });
  const engine = new SkeinEngine({ llm: new ScriptedLLMClient(() => ({ content: '' })), store });
  registerChats(engine);
  const client: WorkerClient = createWorkerClient({ connectionString });
  const pool = new pg.Pool({ connectionString, max: 4 });
  const handler = createWorkerChatHandler({ client, engine, pool, ...options });
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
    transport: new DefaultChatTransport<UIMessage>({
      api: `${url}/api/chat`,
      ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
    }),
  };
}

beforeAll(async () => {
  postgres = await startTestPostgres();
  const store = new PostgresCheckpointStore({ connectionString: postgres.connectionString });
  await store.migrate();
  model = new ScriptedLLMClient(
    (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'tool') return { content: `Done: ${last.content}` };
      if (contentText(last?.content ?? '') === 'draw it')
        return { toolCalls: [{ id: 'call-chart', name: 'chart', arguments: {} }] };
      const amount = /^pay (\d+)$/.exec(contentText(last?.content ?? ''))?.[1];
      if (amount)
        return {
          toolCalls: [{ id: `call-pay-${amount}`, name: 'pay', arguments: { amount: +amount } }],
        };
      const content = last?.content ?? '';
      const files =
        typeof content === 'string' ? 0 : content.filter((p) => p.type !== 'text').length;
      return { content: `re: ${contentText(content)}${files > 0 ? ` (${files} file)` : ''}` };
    },
    { stream: true },
  );
  gated = new GatedLLMClient(model, 'tell me slowly', ANSWER);
  held = new GatedLLMClient(gated, 'hold it', HELD);
  drawn = new GatedLLMClient(held, (request) => request.messages.at(-1)?.name === 'chart', DRAWN);
  const engine = new SkeinEngine({ llm: drawn, store });
  registerChats(engine);
  worker = await createWorker({
    engine,
    connectionString: postgres.connectionString,
    handleSignals: false,
  });
  closers.push(() => store.close());
}, 60_000);

afterAll(async () => {
  held?.open();
  drawn?.open();
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

describe('chat servers in front of a worker, files a tool returns', () => {
  it("keeps a tool's image out of the parts log: a late reader gets its bytes from the store", async () => {
    const a = await chatServer({ workflowId: 'chart-chat' });
    const b = await chatServer({ workflowId: 'chart-chat' });
    const live = (await send(a, 'wc', [user('c1', 'draw it')])) as unknown as ReadableStream<never>;
    // Read A's answer until the words after the chart: the model is held there, and the chart's
    // tool message is not saved yet (the node saves when the answer is whole).
    const [forA, probe] = live.tee();
    const reader = probe.getReader();
    const seen: string[] = [];
    for (;;) {
      const { value } = await reader.read();
      const type = (value as { type?: string } | undefined)?.type ?? '';
      seen.push(type);
      if (type === 'text-delta') break;
    }
    void reader.cancel();
    expect(seen).toContain('file');
    const replay = await b.transport.reconnectToStream({ chatId: 'wc' });
    expect(replay).not.toBeNull();
    drawn.open();
    const [fromA, fromB] = await Promise.all([
      lastMessage(forA as never),
      lastMessage(replay as never),
    ]);
    expect(fromB).toEqual(fromA);
    const file = fromB.parts.find((p) => p.type === 'file') as { url: string } | undefined;
    expect(file?.url).toBe(`data:image/png;base64,${base64Of(CHART)}`);
    expect(fromB.parts.at(-1)).toMatchObject({ type: 'text', text: DRAWN });
    // The log holds the chart's digest, never its bytes.
    const logged = await new pg.Client({ connectionString: postgres.connectionString });
    await logged.connect();
    const { rows } = await logged.query<{ part: string }>(
      'select part::text from skein_worker.ui_stream_parts',
    );
    await logged.end();
    const parts = rows.map((r) => r.part).join('\n');
    expect(parts).toContain('skein-attachment');
    expect(parts).not.toContain(base64Of(CHART));
  }, 60_000);
});

const TOKENS: Record<string, string> = { 'ada-token': 'ada', 'bob-token': 'bob' };

/** A chat server of the app with sign-in: the caller is the bearer token's user. */
const signedIn = (token?: string) =>
  chatServer(
    {
      workflowId: 'pay-chat',
      authorize: (request) => TOKENS[bearerToken(request.headers.get('authorization')) ?? ''],
    },
    token,
  );

const PNG = pngBytes(0, 0, 0, 13, 1, 2, 3);
const withFile = (id: string, text: string, file: { mediaType: string; bytes: Uint8Array }) =>
  ({
    id,
    role: 'user',
    parts: [
      { type: 'text', text },
      {
        type: 'file',
        mediaType: file.mediaType,
        ...(file.mediaType === 'application/pdf' ? { filename: 'spec.pdf' } : {}),
        url: `data:${file.mediaType};base64,${base64Of(file.bytes)}`,
      },
    ],
  }) satisfies UIMessage;

/** The bytes of the last user message's media parts in the model calls of a thread, in order. */
function filesTheModelGot(threadId: string): { mediaType: string; bytes: Uint8Array }[] {
  return model.requests
    .filter((r) => r.threadId === threadId)
    .flatMap((r) => {
      const content = r.messages.at(-1)!.content;
      return typeof content === 'string' ? [] : content;
    })
    .flatMap((part) =>
      part.type === 'text' || part.data === undefined
        ? []
        : [
            {
              mediaType: part.mediaType,
              bytes: typeof part.data === 'string' ? decodeBase64(part.data) : part.data,
            },
          ],
    );
}

describe('chat servers in front of a worker, sent files', () => {
  it("queues a PDF and then an image; the worker's model gets their bytes, and GET …/messages reads them back", async () => {
    const a = await chatServer();
    const b = await chatServer();
    const pdf = withFile('u1', 'read it', { mediaType: 'application/pdf', bytes: PDF_BYTES });
    const first = await lastMessage((await send(a, 'w-file', [pdf])) as never);
    expect(first.parts.at(-1)).toMatchObject({ type: 'text', text: 're: read it (1 file)' });
    expect(filesTheModelGot('w-file')).toEqual([
      { mediaType: 'application/pdf', bytes: PDF_BYTES },
    ]);

    // The next turn, on the other server, sends the stored PDF back in its history.
    const image = withFile('u2', 'and this?', { mediaType: 'image/png', bytes: PNG });
    const second = await lastMessage((await send(b, 'w-file', [pdf, first, image])) as never);
    expect(second.parts.at(-1)).toMatchObject({ type: 'text', text: 're: and this? (1 file)' });
    expect(filesTheModelGot('w-file').at(-1)).toEqual({ mediaType: 'image/png', bytes: PNG });
    // The PDF of the first turn came back from the store (a ref then) as its bytes.
    const history = model.requests.filter((r) => r.threadId === 'w-file').at(-1)!.messages[0]!;
    expect(history.content[1]).toMatchObject({ type: 'file', data: PDF_BYTES });

    // Stored once by digest on the worker's store; read back as the data: URLs that were sent.
    const store = new PostgresCheckpointStore({ connectionString: postgres.connectionString });
    closers.push(() => store.close());
    const stored = (await store.load('w-file'))!.conversation.messages;
    expect(stored[0]!.content).toMatchObject([
      { type: 'text', text: 'read it' },
      { type: 'file', mediaType: 'application/pdf', ref: { size: PDF_BYTES.length } },
    ]);
    const { messages } = (await (await fetch(`${a.url}/api/chat/w-file/messages`)).json()) as {
      messages: UIMessage[];
    };
    expect(messages.map((m) => m.id)).toEqual(['u1', 'u1-answer', 'u2', 'u2-answer']);
    expect(messages[0]!.parts).toEqual(pdf.parts);
    expect(messages[2]!.parts).toEqual(image.parts);
  }, 60_000);
});

describe('chat servers in front of a worker, with authorize: two users', () => {
  it("answers another user's reads, messages, approvals, stream resumes and stops with 404 on every server", async () => {
    const adaOnA = await signedIn('ada-token');
    const adaOnB = await signedIn('ada-token');
    const bobOnB = await signedIn('bob-token');
    const { url: a } = adaOnA;
    const { url: b } = bobOnB;
    // No caller: 401 on every route.
    for (const [path, method] of [
      ['/api/chat', 'POST'],
      ['/api/chat/wa/messages', 'GET'],
      ['/api/chat/wa/stream', 'GET'],
      ['/api/chat/wa/stop', 'POST'],
    ] as const)
      expect(
        await callAs(`${b}${path}`, undefined, method, method === 'POST' ? {} : undefined),
      ).toMatchObject({
        status: 401,
        code: 'UNAUTHORIZED',
        challenge: 'Bearer realm="skein"',
      });

    // Ada's chat, a message and then a payment waiting for her approval.
    const first = await lastMessage((await send(adaOnA, 'wa', [user('u1', 'hi')])) as never);
    expect(first.parts.at(-1)).toMatchObject({ type: 'text', text: 're: hi' });
    const history = [user('u1', 'hi'), first, user('u2', 'pay 5')];
    const asked = await lastMessage((await send(adaOnA, 'wa', history)) as never);
    expect(asked.parts.at(-1)).toMatchObject({ state: 'approval-requested' });
    const store = new PostgresCheckpointStore({ connectionString: postgres.connectionString });
    closers.push(() => store.close());
    expect((await store.load('wa'))!.state).toMatchObject({ principal: 'ada', status: 'PAUSED' });
    const before = await store.list('wa');

    expect(await callAs(`${b}/api/chat/wa/messages`, 'bob-token')).toMatchObject({
      status: 404,
      code: 'CHAT_NOT_FOUND',
    });
    await expect(send(bobOnB, 'wa', [user('b1', 'mine now')])).rejects.toThrow(/CHAT_NOT_FOUND/);
    await expect(send(bobOnB, 'wa', [...history, answerApprovals(asked)])).rejects.toThrow(
      /CHAT_NOT_FOUND/,
    );
    expect(await store.list('wa')).toEqual(before);
    expect(payments).toEqual([]);

    // Ada approves on the other server; the payment runs once.
    const paid = await lastMessage(
      (await send(adaOnB, 'wa', [...history, answerApprovals(asked)])) as never,
      structuredClone(answerApprovals(asked)),
    );
    expect(paid.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: {"paid":5}' });
    expect(payments).toEqual([5]);

    // An answer held mid-way on server A: Bob can neither follow nor stop it on B; Ada can.
    const live = (await send(adaOnA, 'wa', [
      ...history,
      paid,
      user('u3', 'hold it'),
    ])) as unknown as ReadableStream<{ type?: string }>;
    const [forAda, probe] = live.tee();
    const reader = probe.getReader();
    for (;;) if ((await reader.read()).value?.type === 'text-delta') break;
    void reader.cancel();
    expect(await callAs(`${b}/api/chat/wa/stream`, 'bob-token')).toMatchObject({
      status: 404,
      code: 'CHAT_NOT_FOUND',
    });
    expect(await callAs(`${b}/api/chat/wa/stop`, 'bob-token', 'POST')).toMatchObject({
      status: 404,
      code: 'CHAT_NOT_FOUND',
    });
    await expect(send(bobOnB, 'wa', [user('b1', 'hello?')])).rejects.toThrow(/CHAT_NOT_FOUND/);
    const replay = await adaOnB.transport.reconnectToStream({ chatId: 'wa' });
    expect(replay).not.toBeNull();
    held.open();
    const [fromA, fromB] = await Promise.all([
      lastMessage(forAda as never),
      lastMessage(replay as never),
    ]);
    expect(fromA.parts.filter((p) => p.type === 'text')).toEqual([
      { type: 'text', text: HELD, state: 'done' },
    ]);
    expect(fromB).toEqual(fromA);
    expect((await store.load('wa'))!.state).toMatchObject({
      status: 'COMPLETED',
      principal: 'ada',
    });
    expect((await callAs(`${a}/api/chat/wa/messages`, 'ada-token')).status).toBe(200);
    // Bob's chat is his; regenerating is refused in this mode for everyone alike (400).
    const his = await lastMessage((await send(bobOnB, 'wb', [user('b1', 'hey')])) as never);
    expect(his.parts.at(-1)).toMatchObject({ text: 're: hey' });
    expect((await store.load('wb'))!.state.principal).toBe('bob');
    expect(await callAs(`${a}/api/chat/wb/messages`, 'ada-token')).toMatchObject({ status: 404 });
  }, 60_000);
});
