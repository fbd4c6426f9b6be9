import { InMemoryCheckpointStore } from '@skein/core';
import { encodeBase64, InvalidArgumentError } from '@skein/spec';
import pg from 'pg';
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
import { testEngine } from './test-support/test-engine.js';

// What can never run is refused where it enters: by the client, with nothing enqueued, and by
// the worker (for a payload written by anything else), failed once for good instead of 25 times.

let server: TestPostgres;
let admin: pg.Pool;
let worker: SkeinWorker;
let client: WorkerClient;
const outcomes: [string, JobOutcome][] = [];

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.connectionString, max: 2 });
  admin.on('error', () => {});
  worker = await createWorker({
    engine: testEngine(new InMemoryCheckpointStore()),
    connectionString: server.connectionString,
    handleSignals: false,
    onJob: (threadId, outcome) => outcomes.push([threadId, outcome]),
    // graphile-worker logs each failed job; expected here.
    log: () => {},
  });
  client = createWorkerClient({ connectionString: server.connectionString });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await worker?.stop();
  await admin?.end();
  await server?.stop();
});

/** Jobs ever added (their id sequence: done jobs are deleted) and threads ever enqueued. */
async function counts(): Promise<{ jobs: string; threads: number }> {
  const { rows } = await admin.query<{ jobs: string; threads: number }>(
    `select pg_sequence_last_value(
              pg_get_serial_sequence('graphile_worker._private_jobs', 'id')::regclass)::text as jobs,
            (select count(*)::int from skein_worker.threads) as threads`,
  );
  return rows[0]!;
}

let deep: unknown = 'bottom';
for (let i = 0; i < 300; i++) deep = { d: deep };

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('enqueueThread', () => {
  it.each([
    ['a NUL byte', 'a\u0000b'],
    ['a control character', 'line\nbreak'],
    ['10 MB', 'x'.repeat(10 * 1024 * 1024)],
    ['nothing', ''],
    ['a lone surrogate', 'half\ud800'],
  ])('refuses a thread id with %s, enqueueing nothing', async (_, threadId) => {
    const before = await counts();
    const refused = client.enqueueThread('chain', 'hi', { threadId });
    await expect(refused).rejects.toSatisfy(InvalidArgumentError.isInstance);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'threadId' });
    await expect(client.resumeThread(threadId, 'x')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(client.cancelThread(threadId)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(client.subscribe(threadId, () => {})).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await counts()).toEqual(before);
  });

  it('takes a thread id of 256 characters', async () => {
    const threadId = 'é'.repeat(256);
    await expect(client.enqueueThread('chain', 'hi', { threadId })).resolves.toBe(threadId);
  });

  it.each([
    ['messages of the wrong shape', 'chain', { messages: [{ role: 'robot', content: 1 }] }, 'hi'],
    ['input too deep to store', 'chain', {}, deep],
    ['variables no store can hold', 'chain', { variables: { when: new Date(0) } }, 'hi'],
  ])('refuses %s, enqueueing nothing', async (_, workflowId, options, input) => {
    const before = await counts();
    // A job was added before (the 256-character id): the sequence has a value to compare.
    expect(before.jobs).toMatch(/^\d+$/);
    await expect(
      client.enqueueThread(workflowId, input, {
        threadId: `bad-${workflowId}`,
        ...options,
      } as never),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await counts()).toEqual(before);
  });

  it('refuses resume input too deep to store', async () => {
    await client.enqueueThread('approval', 'hi', { threadId: 'deep-resume' });
    const before = await counts();
    await expect(client.resumeThread('deep-resume', deep)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await counts()).toEqual(before);
  });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');

describe('sendMessage with parts', () => {
  it.each([
    [
      'PNG bytes labelled image/jpeg',
      { type: 'image', mediaType: 'image/jpeg', data: PNG },
      'signature',
    ],
    [
      'base64 with a line break',
      { type: 'file', mediaType: 'application/pdf', data: `${encodeBase64(PDF)}\n` },
      'base64',
    ],
    [
      'an ArrayBuffer for bytes',
      { type: 'file', mediaType: 'text/plain', data: new ArrayBuffer(3) },
      'part',
    ],
    [
      'a file: URL',
      { type: 'file', mediaType: 'application/pdf', url: 'file:///etc/passwd' },
      'url',
    ],
    ['an unknown part type', { type: 'video', mediaType: 'video/mp4', data: 'AAAA' }, 'part-type'],
  ])('refuses %s naming the part, enqueueing nothing', async (_, part, kind) => {
    const before = await counts();
    expect(before.jobs).toMatch(/^\d+$/);
    const content = [{ type: 'text', text: 'look' }, part];
    const refused = client.sendMessage('bad-parts', { content } as never);
    await expect(refused).rejects.toSatisfy(InvalidArgumentError.isInstance);
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'message.content[1]',
      details: { kind, index: 1 },
      message: expect.stringMatching(/^Invalid Skein job: message\.content\[1\]: /),
    });
    expect(await counts()).toEqual(before);
  });

  it('refuses an attachment over the limit checkContent applies (20 MiB), enqueueing nothing', async () => {
    const before = await counts();
    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    const content = [{ type: 'file', mediaType: 'application/octet-stream', data: big }] as const;
    await expect(client.sendMessage('big-parts', { content })).rejects.toMatchObject({
      argument: 'message.content[0]',
      details: { kind: 'size' },
    });
    expect(await counts()).toEqual(before);
  });
});

describe('a job that can never run', () => {
  it.each([
    [
      'messages of the wrong shape',
      { op: 'start', threadId: 'raw-messages', workflowId: 'chain', messages: [{ role: 'robot' }] },
    ],
    [
      'input too deep to store',
      { op: 'start', threadId: 'raw-deep', workflowId: 'chain', input: deep },
    ],
    ['a workflow no worker has', { op: 'start', threadId: 'raw-workflow', workflowId: 'nowhere' }],
    ['a NUL in its thread id', { op: 'start', threadId: 'raw\u0000nul', workflowId: 'chain' }],
    ['an unknown operation', { op: 'explode', threadId: 'raw-op' }],
    [
      'a sent part with no source',
      {
        op: 'send',
        threadId: 'raw-part',
        message: { content: [{ type: 'image', mediaType: 'image/png' }] },
      },
    ],
  ])('with %s fails once, for good, and says why', async (_, payload) => {
    const threadId = payload.threadId;
    const events: WorkerEvent[] = [];
    const valid = !threadId.includes('\u0000');
    if (valid) await worker.subscribe(threadId, (event) => events.push(event));
    // Written by something other than the client (an older one, a hand-made job).
    const { rows } = await admin.query<{ id: string }>(
      `select id from graphile_worker.add_job('skein_thread', $1::json)`,
      [JSON.stringify(payload)],
    );
    const id = rows[0]!.id;
    const job = async () =>
      (
        await admin.query<{ attempts: number; max_attempts: number; last_error: string | null }>(
          'select attempts, max_attempts, last_error from graphile_worker._private_jobs where id = $1',
          [id],
        )
      ).rows[0];
    await until(async () => (await job())?.last_error != null, 'the job to be failed');
    expect(await job()).toMatchObject({ attempts: 1, max_attempts: 1 });
    if (valid) {
      expect(outcomes.filter(([t]) => t === threadId).map(([, o]) => o.kind)).toEqual(['invalid']);
      await until(() => events.length > 0, 'an event for subscribers');
      expect(events[0]?.event).toBe(payload.op === 'start' ? 'thread:failed' : 'warning');
    }
  });
});

describe('a send job whose stored parts were tampered with', () => {
  it.each([
    [
      'bytes that are not the declared PDF',
      { data: encodeBase64(PNG) },
      'signature',
      /they look like image\/png/,
    ],
    [
      'data that is not strict base64',
      { data: 'JVBER i0=' },
      'base64',
      /invalid base64 character " "/,
    ],
    [
      'bytes as JSON made of a Uint8Array',
      { data: { 0: 37, 1: 80 } },
      'bytes',
      /base64 text, not an object/,
    ],
  ])(
    'fails once, for good, as an invalid job naming the part: %s',
    async (_, source, kind, why) => {
      const threadId = `tampered-${kind}`;
      // As the client wrote it, then changed in the job table before any worker read it.
      const payload = {
        op: 'send',
        threadId,
        message: {
          content: [
            { type: 'text', text: 'read it' },
            { type: 'file', mediaType: 'application/pdf', ...source },
          ],
        },
      };
      await admin.query(`select graphile_worker.add_job('skein_thread', $1::json)`, [
        JSON.stringify(payload),
      ]);
      await until(() => outcomes.some(([t]) => t === threadId), 'the job to be failed');
      expect(outcomes.filter(([t]) => t === threadId).map(([, o]) => o)).toEqual([
        {
          kind: 'invalid',
          error: {
            code: 'INVALID_ARGUMENT',
            message: expect.stringMatching(
              /^Invalid Skein job: message\.content\[1\]: \(file part\) /,
            ),
          },
        },
      ]);
      expect(outcomes.find(([t]) => t === threadId)![1]).toMatchObject({
        error: { message: expect.stringMatching(why) },
      });
    },
  );
});
