import { chatWorkflow } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorker,
  createWorkerClient,
  type SkeinWorker,
  type WorkerClient,
  type WorkerEvent,
} from './index.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';
import { testEngine } from './test-support/test-engine.js';

const SCHEMAS = { schema: 'skein_send', graphileSchema: 'gw_send' };
let server: TestPostgres;
let store: PostgresCheckpointStore;
let worker: SkeinWorker;
let client: WorkerClient;

beforeAll(async () => {
  server = await startPostgres();
  store = new PostgresCheckpointStore({ connectionString: server.connectionString });
  await store.migrate();
  const engine = testEngine(store);
  engine.registerWorkflow(chatWorkflow());
  const { connectionString } = server;
  worker = await createWorker({ engine, connectionString, handleSignals: false, ...SCHEMAS });
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
