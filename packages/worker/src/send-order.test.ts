import { chatWorkflow, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import type { LLMMessage } from '@skein/spec';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorker,
  createWorkerClient,
  type JobOutcome,
  type SkeinWorker,
  type WorkerClient,
} from './index.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';

// A sender's messages are stored in the order they were queued, even when the first of them is
// set aside for later. Seen once on a loaded machine in the two-worker ifBusy test: a sender's
// messages stored as [1, 0] (its first job set aside, and the second, due sooner, taken first).

const SCHEMAS = { schema: 'skein_order', graphileSchema: 'gw_order' };
let server: TestPostgres;
let store: PostgresCheckpointStore;
let engine: SkeinEngine;
let worker: SkeinWorker | undefined;
let client: WorkerClient;
const outcomes: JobOutcome[] = [];
let onOutcome: () => void = () => {};

beforeAll(async () => {
  server = await startPostgres();
  store = new PostgresCheckpointStore({ connectionString: server.connectionString });
  await store.migrate();
  const llm = new ScriptedLLMClient(
    [(request) => ({ content: `re: ${String(request.messages.at(-1)?.content)}` })],
    { whenExhausted: 'repeat-last' },
  );
  engine = new SkeinEngine({ llm, store });
  engine.registerWorkflow(chatWorkflow());
  client = createWorkerClient({ connectionString: server.connectionString, ...SCHEMAS });
  await client.migrate();
}, 60_000);

afterAll(async () => {
  await client?.close();
  await worker?.stop();
  await store?.close();
  await server?.stop();
});

/** Starts the worker on the jobs queued so far. */
async function startWorker(): Promise<void> {
  worker = await createWorker({
    engine,
    connectionString: server.connectionString,
    handleSignals: false,
    ...SCHEMAS,
    onJob: (_threadId, outcome) => {
      outcomes.push(outcome);
      onOutcome();
    },
    log: () => {},
  });
}

/** Resolves once `check` holds, looked at after each job outcome. */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check()))
    await new Promise<void>((resolve) => {
      onOutcome = resolve;
    });
  onOutcome = () => {};
}

const FINAL: ReadonlySet<JobOutcome['kind']> = new Set(['ran', 'posted', 'rejected', 'idle']);
const text = (m: LLMMessage) => (typeof m.content === 'string' ? m.content : '');

describe("a sender's send jobs", () => {
  it('keep their order while the first waits set aside', async () => {
    const threadId = 'order-1';
    // The state a job set aside is in (`deferJob`: its thread was held by a live run, or its
    // run lost the thread to another worker): in its sender's queue, due later than the next.
    await client.sendMessage(threadId, 'x-0', { sender: 'x' });
    await client.sendMessage(threadId, 'x-1', { sender: 'x' });
    const { rowCount } = await client.queue.pool.query(
      `update ${SCHEMAS.graphileSchema}._private_jobs set run_at = now() + interval '1 second'
        where payload::text like '%x-0%'`,
    );
    expect(rowCount).toBe(1);
    await startWorker();
    await until(() => outcomes.filter((o) => FINAL.has(o.kind)).length === 2);
    await engine.idle(threadId);
    const stored = await store.load(threadId);
    const users = (stored!.conversation.messages as LLMMessage[])
      .filter((m) => m.role === 'user')
      .map(text);
    expect(users).toEqual(['x-0', 'x-1']);
  }, 60_000);
});
