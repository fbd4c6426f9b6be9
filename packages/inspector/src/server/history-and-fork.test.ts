import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryItem, ThreadDetail } from '../model/types.js';
import { runFixtureThread } from '../test-support/fixture-thread.js';
import { rawRequest } from '../test-support/raw-request.js';
import {
  type ResumableInspector,
  startResumableInspector,
} from '../test-support/resumable-inspector.js';
import type { RunningInspector } from './inspector-options.js';
import { startInspector } from './start-inspector.js';

let subject: ResumableInspector;
let own: string;

async function history(threadId: string, inspector: RunningInspector = subject.inspector) {
  const response = await fetch(new URL(`/api/threads/${threadId}/history`, inspector.url));
  return { status: response.status, body: (await response.json()) as { entries: HistoryItem[] } };
}

function fork(
  threadId: string,
  body: string,
  headers: Record<string, string> = {},
  inspector: RunningInspector = subject.inspector,
) {
  return rawRequest(new URL(`/api/threads/${threadId}/fork`, inspector.url).href, {
    method: 'POST',
    headers: {
      origin: new URL(inspector.url).origin,
      'content-type': 'application/json',
      ...headers,
    },
    body,
  });
}

async function threadCount(): Promise<number> {
  return (await subject.store.listThreads()).length;
}

beforeAll(async () => {
  subject = await startResumableInspector({ options: { allowFork: true, maxBodyBytes: 256 } });
  own = new URL(subject.inspector.url).origin;
  await runFixtureThread(subject.engine, 'trip-1');
  // trip-2 went on past its pause: a fork from the pause must leave out what came after.
  await runFixtureThread(subject.engine, 'trip-2');
  await subject.engine.resume(await subject.engine.loadThread('trip-2'), 'yes');
});

afterAll(() => subject.dispose());

describe('GET /api/threads/:id/history', () => {
  it("lists the thread's checkpoints oldest first, as engine.history does", async () => {
    const { status, body } = await history('trip-1');
    expect(status).toBe(200);
    expect(body.entries).toEqual(await subject.engine.history('trip-1'));
    expect(body.entries.map((e) => [e.step, e.nodeId, e.status])).toEqual([
      [1, 'plan', 'RUNNING'],
      [2, 'reset', 'RUNNING'],
      [3, 'summary', 'RUNNING'],
      [4, 'confirm', 'RUNNING'],
      [4, 'confirm', 'PAUSED'],
    ]);
    const sequences = body.entries.map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(body.entries[1]!.summary).toMatch(/^plan completed/);
  });

  it('without an engine, lists what the store says (no summary)', async () => {
    const readOnly = await startInspector({ store: subject.store });
    try {
      const { body } = await history('trip-2', readOnly);
      const full = await subject.engine.history('trip-2');
      expect(body.entries).toEqual(full.map(({ changes: _c, summary: _s, ...rest }) => rest));
      expect((await history('nope', readOnly)).status).toBe(404);
    } finally {
      await readOnly.close();
    }
  });

  it('answers 404 for an unknown thread and 405 to a POST', async () => {
    const missing = await history('nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'CHECKPOINT_NOT_FOUND' } });
    const post = await rawRequest(new URL('/api/threads/trip-1/history', own).href, {
      method: 'POST',
      headers: { origin: own, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('POST /api/threads/:id/fork', () => {
  it('forks at a checkpoint: the fork keeps the history up to there, nothing after, linked back', async () => {
    const pause = (await subject.engine.history('trip-2')).find((e) => e.status === 'PAUSED')!;
    const answer = await fork('trip-2', JSON.stringify({ at: pause.checkpointId }));
    expect(answer.status).toBe(202);
    const accepted = JSON.parse(answer.body);
    expect(accepted).toMatchObject({
      accepted: true,
      threadId: expect.any(String),
      forkedFrom: { threadId: 'trip-2', checkpointId: pause.checkpointId },
    });
    const forkId: string = accepted.threadId;
    // Stored before the 202: the page can open it at once.
    const detail = (await (
      await fetch(new URL(`/api/threads/${forkId}`, own))
    ).json()) as ThreadDetail;
    expect(detail.summary).toMatchObject({
      status: 'PAUSED',
      forkedFrom: { threadId: 'trip-2', checkpointId: pause.checkpointId },
    });
    const stored = (await subject.store.list('trip-2')).find((c) => c.id === pause.checkpointId)!;
    expect(detail.messages).toHaveLength(stored.messageCount);
    const forked = (await history(forkId)).body.entries;
    expect(forked.map((e) => [e.step, e.nodeId, e.status])).toEqual([
      [pause.step, 'confirm', 'PAUSED'],
    ]);
    // The parent is untouched and went further.
    expect((await history('trip-2')).body.entries.at(-1)!.status).toBe('COMPLETED');
  });

  it('answers once a fork that runs on is stored, and the run goes on', async () => {
    const before = (await subject.engine.history('trip-1')).find((e) => e.nodeId === 'summary')!;
    const answer = await fork('trip-1', JSON.stringify({ at: before.checkpointId }));
    expect(answer.status).toBe(202);
    const forkId: string = JSON.parse(answer.body).threadId;
    expect((await history(forkId)).status).toBe(200);
    await expect.poll(async () => (await subject.store.load(forkId))?.state.status).toBe('PAUSED');
    const entries = (await history(forkId)).body.entries;
    // Stored before it runs: its first checkpoint is the fork point, and the run went on from it.
    expect(entries[0]!.step).toBe(before.step);
    expect(entries.at(-1)!.step).toBeGreaterThan(before.step);
    expect(entries.at(-1)).toMatchObject({ nodeId: 'confirm', status: 'PAUSED' });
  });

  it('is refused (404) for an unknown thread or checkpoint, and nothing is made', async () => {
    const count = await threadCount();
    const noThread = await fork('nope', '{"at":"nope:1"}');
    expect(noThread.status).toBe(404);
    expect(JSON.parse(noThread.body).error.code).toBe('CHECKPOINT_NOT_FOUND');
    for (const at of ['trip-1:99', 'trip-2:1'])
      expect([at, (await fork('trip-1', JSON.stringify({ at }))).status]).toEqual([at, 404]);
    expect(await threadCount()).toBe(count);
  });

  it('is refused (400) for a bad body, 415 unless JSON, 413 over the body limit', async () => {
    const count = await threadCount();
    for (const body of ['{"at":', '{}', '{"at":""}', '{"at":3}', '["trip-1:1"]', '"trip-1:1"', ''])
      expect([body, (await fork('trip-1', body)).status]).toEqual([body, 400]);
    const text = await fork('trip-1', '{"at":"trip-1:1"}', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const big = await fork('trip-1', JSON.stringify({ at: 'trip-1:1', pad: 'x'.repeat(300) }));
    expect(big.status).toBe(413);
    expect(await threadCount()).toBe(count);
  });

  it('is refused (403) from another origin, and 405 to a GET', async () => {
    const count = await threadCount();
    const foreign: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const refused = await fork('trip-1', '{"at":"trip-1:1"}', headers);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.code).toBe('CROSS_ORIGIN_REFUSED');
    }
    const get = await rawRequest(new URL('/api/threads/trip-1/fork', own).href);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(await threadCount()).toBe(count);
  });

  it('is refused (403) when the inspector does not allow forking or has no engine', async () => {
    const count = await threadCount();
    const resumeOnly = await startInspector({
      store: subject.store,
      engine: subject.engine,
      allowResume: true,
    });
    const noEngine = await startInspector({ store: subject.store, allowFork: true });
    try {
      for (const [inspector, reason] of [
        [resumeOnly, 'allowFork'],
        [noEngine, 'no engine'],
      ] as const) {
        const info = await (await fetch(new URL('/api/info', inspector.url))).json();
        expect(info.allowFork).toBe(false);
        const refused = await fork('trip-1', '{"at":"trip-1:1"}', {}, inspector);
        expect(refused.status).toBe(403);
        const { error } = JSON.parse(refused.body);
        expect(error.code).toBe('FORK_NOT_ALLOWED');
        expect(error.message).toContain(reason);
      }
    } finally {
      await resumeOnly.close();
      await noEngine.close();
    }
    expect(await threadCount()).toBe(count);
    const info = await (await fetch(new URL('/api/info', own))).json();
    expect(info).toMatchObject({ allowResume: true, allowFork: true });
  });
});
