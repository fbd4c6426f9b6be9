import { chatWorkflow } from '@skein/core';
import { decodeBase64, encodeBase64, InvalidArgumentError, type MediaPart } from '@skein/spec';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorker,
  createWorkerClient,
  type JobOutcome,
  type SkeinWorker,
  type WorkerClient,
  type WorkerEvent,
} from './index.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';
import { scriptedModel, testEngine } from './test-support/test-engine.js';

const SCHEMAS = { schema: 'skein_send', graphileSchema: 'gw_send' };
let server: TestPostgres;
let store: PostgresCheckpointStore;
let worker: SkeinWorker;
let client: WorkerClient;
const model = scriptedModel();
/** Who waits for a job of a thread to end with an outcome of some kind (a job told late aside). */
const jobWaiters = new Map<string, (outcome: JobOutcome) => void>();
const nextJob = (threadId: string, kind: JobOutcome['kind']) =>
  new Promise<JobOutcome>((resolve) =>
    jobWaiters.set(threadId, (outcome) => {
      if (outcome.kind !== kind) return;
      jobWaiters.delete(threadId);
      resolve(outcome);
    }),
  );

beforeAll(async () => {
  server = await startPostgres();
  store = new PostgresCheckpointStore({ connectionString: server.connectionString });
  await store.migrate();
  const engine = testEngine(store, model);
  engine.registerWorkflow(chatWorkflow());
  const { connectionString } = server;
  worker = await createWorker({
    engine,
    connectionString,
    handleSignals: false,
    ...SCHEMAS,
    onJob: (threadId, outcome) => jobWaiters.get(threadId)?.(outcome),
    // graphile-worker logs a job failed for good; expected here.
    log: () => {},
  });
  client = createWorkerClient({ connectionString, ...SCHEMAS });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await worker?.stop();
  await store?.close();
  await server?.stop();
});

/** Resolves with the thread's next end (completed, failed, paused, cancelled). */
async function nextEnd(threadId: string): Promise<{ end: Promise<WorkerEvent>; stop(): void }> {
  let settle!: (event: WorkerEvent) => void;
  const end = new Promise<WorkerEvent>((resolve) => (settle = resolve));
  const stop = await client.subscribe(threadId, (event) => {
    if (/^thread:(completed|failed|paused|cancelled)$/.test(event.event)) settle(event);
  });
  return { end, stop: () => void stop() };
}

describe('send jobs', () => {
  it('starts a chat thread with a message, then runs its next turn with the next one', async () => {
    const threadId = 'send-1';
    let turn = await nextEnd(threadId);
    await client.sendMessage(threadId, { content: 'hello', metadata: { uiMessageId: 'u1' } });
    expect((await turn.end).event).toBe('thread:completed');
    turn.stop();
    turn = await nextEnd(threadId);
    await client.sendMessage(threadId, 'and again', { workflowId: 'chat' });
    expect((await turn.end).event).toBe('thread:completed');
    turn.stop();
    const stored = await store.load(threadId);
    const messages = stored!.conversation.messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messages[0]).toMatchObject({ content: 'hello', metadata: { uiMessageId: 'u1' } });
    expect(messages[2]!.content).toBe('and again');
    // Known to the queue, so it can be cancelled like an enqueued thread.
    await client.cancelThread(threadId);
  });

  it('refuses a message no thread would take, with nothing enqueued', async () => {
    await expect(
      client.sendMessage('send-2', { content: 5 } as unknown as { content: string }),
    ).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(client.sendMessage('send-2', 'hi', { workflowId: '' })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(await store.load('send-2')).toBeUndefined();
  });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 7]);
const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');

/** A media part's bytes, whichever way it holds them inline (bytes or base64 text). */
function inlineBytes(part: MediaPart): Uint8Array {
  if (part.data === undefined) throw new Error(`${part.type} part has no inline data`);
  return typeof part.data === 'string' ? decodeBase64(part.data) : new Uint8Array(part.data);
}

describe('send jobs with parts', () => {
  it('carries an image given as bytes and a PDF given as base64 to the engine, and the store keeps each once by digest', async () => {
    const threadId = 'send-parts';
    const turn = await nextEnd(threadId);
    await client.sendMessage(threadId, {
      content: [
        { type: 'text', text: 'what are these?' },
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'file', mediaType: 'application/pdf', filename: 'a.pdf', data: encodeBase64(PDF) },
      ],
      metadata: { uiMessageId: 'u-parts' },
    });
    expect((await turn.end).event).toBe('thread:completed');
    turn.stop();

    // The model call on the worker got the same bytes.
    const request = model.requests.find((r) => r.threadId === threadId)!;
    const sent = request.messages.at(-1)!;
    expect(sent.role).toBe('user');
    const parts = sent.content as readonly MediaPart[];
    expect(parts[0]).toEqual({ type: 'text', text: 'what are these?' });
    expect(parts[1]).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(inlineBytes(parts[1]!)).toEqual(PNG);
    expect(parts[2]).toMatchObject({
      type: 'file',
      mediaType: 'application/pdf',
      filename: 'a.pdf',
    });
    expect(inlineBytes(parts[2]!)).toEqual(PDF);

    // Once saved, the thread holds refs; the bytes are the store's, by digest.
    const stored = (await store.load(threadId))!.conversation.messages[0]!;
    // The job's id rides along: a retry of the job finds its message made the thread.
    expect(stored.metadata).toEqual({
      uiMessageId: 'u-parts',
      inboxId: expect.stringMatching(/^job:/),
    });
    const refs = (stored.content as readonly MediaPart[]).slice(1);
    for (const [i, bytes] of [PNG, PDF].entries()) {
      const ref = refs[i]!.ref!;
      expect(ref).toMatchObject({ size: bytes.length, digest: expect.stringMatching(/^sha256:/) });
      expect(await store.readAttachment(threadId, ref.digest)).toEqual(bytes);
    }
  });
});

describe('jobs of a principal', () => {
  it("builds the caller's thread; another caller's message or answer for it fails for good, changing nothing", async () => {
    const threadId = 'send-owned';
    let turn = await nextEnd(threadId);
    await client.sendMessage(threadId, 'hello', { principal: 'ada' });
    expect((await turn.end).event).toBe('thread:completed');
    turn.stop();
    expect((await store.load(threadId))!.state.principal).toBe('ada');
    const before = await store.list(threadId);

    const heard: string[] = [];
    const listening = await client.subscribe(threadId, (event) => heard.push(event.event));
    for (const queue of [
      () => client.sendMessage(threadId, 'mine now', { principal: 'bob' }),
      () => client.resumeThread(threadId, 'yes', { principal: 'bob' }),
    ]) {
      const job = nextJob(threadId, 'invalid');
      await queue();
      expect(await job).toMatchObject({
        kind: 'invalid',
        error: { code: 'CHECKPOINT_NOT_FOUND', message: `Thread ${threadId} has no checkpoint` },
      });
    }
    await listening();
    expect(heard).toEqual([]);
    expect(await store.list(threadId)).toEqual(before);

    // Ada goes on; a thread enqueued for her is hers too.
    turn = await nextEnd(threadId);
    await client.sendMessage(threadId, 'again', { principal: 'ada' });
    expect((await turn.end).event).toBe('thread:completed');
    turn.stop();
    const started = nextJob('enqueued-owned', 'ran');
    await client.enqueueThread('chat', 'hi', { threadId: 'enqueued-owned', principal: 'ada' });
    expect(await started).toMatchObject({ kind: 'ran' });
    expect((await store.load('enqueued-owned'))!.state.principal).toBe('ada');
  });

  it('refuses a principal no thread could have, with nothing enqueued', async () => {
    await expect(client.sendMessage('send-3', 'hi', { principal: '' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'principal',
    });
    await expect(
      client.enqueueThread('chat', 'hi', { threadId: 'send-3', principal: 'a\u0000' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'principal' });
    expect(await store.load('send-3')).toBeUndefined();
  });
});
