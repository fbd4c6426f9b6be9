import type { ConversationSnapshot } from '@skein/conversation';
import { ConversationManager } from '@skein/conversation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadDetail, ThreadSummary } from '../model/types.js';
import {
  createFixtureEngine,
  runFixtureThread,
  SCRIPT_MESSAGE,
} from '../test-support/fixture-thread.js';
import { waitForEvent } from '../test-support/sse-client.js';
import { tempStore } from '../test-support/temp-store.js';
import type { RunningInspector } from './inspector-options.js';
import { startInspector } from './start-inspector.js';

const temp = tempStore();
let inspector: RunningInspector;

async function getJson<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, inspector.url));
  return { status: response.status, body: (await response.json()) as T };
}

beforeAll(async () => {
  const engine = createFixtureEngine(temp.store);
  await runFixtureThread(engine, 'trip-1');
  await runFixtureThread(createFixtureEngine(temp.store), 'trip-2');
  await engine.resume(await engine.loadThread('trip-2'), 'yes');
  inspector = await startInspector({ store: temp.store, pollIntervalMs: 20 });
});

afterAll(async () => {
  await inspector.close();
  temp.dispose();
});

describe('the JSON API over a SQLite store', () => {
  it('listens on 127.0.0.1 and an ephemeral port', () => {
    expect(inspector.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(inspector.port).toBeGreaterThan(0);
  });

  it('lists threads with status, workflow, steps, tokens and filters', async () => {
    const { body } = await getJson<{ threads: ThreadSummary[]; workflows: string[] }>(
      '/api/threads',
    );
    expect(body.workflows).toEqual(['trip']);
    const byId = Object.fromEntries(body.threads.map((t) => [t.threadId, t]));
    expect(byId['trip-1']).toMatchObject({ status: 'PAUSED', workflowId: 'trip', steps: 4 });
    expect(byId['trip-1']!.tokens).toEqual({
      promptTokens: 380,
      completionTokens: 51,
      totalTokens: 431,
    });
    expect(byId['trip-2']).toMatchObject({ status: 'COMPLETED', steps: 7 });
    expect(byId['trip-2']!.tokens.totalTokens).toBe(431 + 87);

    const paused = await getJson<{ threads: ThreadSummary[] }>('/api/threads?status=paused');
    expect(paused.body.threads.map((t) => t.threadId)).toEqual(['trip-1']);
    const text = await getJson<{ threads: ThreadSummary[] }>('/api/threads?text=TRIP-2');
    expect(text.body.threads.map((t) => t.threadId)).toEqual(['trip-2']);
    const none = await getJson<{ threads: ThreadSummary[] }>('/api/threads?workflow=other');
    expect(none.body.threads).toEqual([]);
  });

  it('shows every stored message and, per batch, what the store says was visible', async () => {
    const { body } = await getJson<ThreadDetail>('/api/threads/trip-1');
    const stored = await temp.store.load('trip-1');
    const conversation = stored!.conversation as ConversationSnapshot;
    const manager = ConversationManager.restore(conversation);
    expect(body.messages).toHaveLength(manager.getTotalMessageCount());
    const onStack = body.batches.filter((b) => b.onStack);
    expect(onStack.map((b) => ({ startedAt: b.startedAt, visible: b.visible.length }))).toEqual(
      manager.listBatches().map((b) => ({ startedAt: b.startedAt, visible: b.visibleCount })),
    );
    const current = body.batches.find((b) => b.current)!;
    expect(current.visible.map((p) => body.messages[p]!.content)).toEqual(
      manager.getMessages().map((m) => m.content),
    );
    // The CLEAR started batch 1; the tool description is marked and visible in both batches.
    expect(body.boundaries).toEqual([
      { kind: 'clear', at: 7, label: 'batch 1 starts (with the tool description)' },
    ]);
    expect(body.messages[0]!.isToolDescription).toBe(true);
    expect(body.batches.every((b) => b.visible.includes(0))).toBe(true);
    expect(body.batches.map((b) => b.usage.totalTokens)).toEqual([362, 69]);
    expect(body.messages.some((m) => m.content === SCRIPT_MESSAGE)).toBe(true);
  });

  it('pairs each tool call with its result, errors marked', async () => {
    const { body } = await getJson<ThreadDetail>('/api/threads/trip-1');
    expect(body.toolPairs).toEqual([
      {
        callId: 'call_3_0',
        name: 'weather',
        arguments: '{\n  "city": "Lisbon"\n}',
        callPosition: 3,
        resultPosition: 4,
        result: '{"city":"Lisbon","sky":"sunny"}',
        isError: false,
      },
      {
        callId: 'call_3_1',
        name: 'flights',
        arguments: '{\n  "to": "Nowhere"\n}',
        callPosition: 3,
        resultPosition: 5,
        result: 'Error [TOOL_FAILED]: no route to Nowhere',
        isError: true,
      },
    ]);
  });

  it('gives the node timeline and the path through the workflow', async () => {
    const { body } = await getJson<ThreadDetail>('/api/threads/trip-1');
    expect(body.timeline.map((e) => `${e.nodeId}:${e.status}`)).toEqual([
      'start:completed',
      'plan:completed',
      'reset:completed',
      'summary:completed',
      'confirm:paused',
    ]);
    expect(body.graph.path).toEqual(['start', 'plan', 'reset', 'summary', 'confirm']);
    expect(body.pending).toMatchObject({
      kind: 'user-input',
      nodeId: 'confirm',
      prompt: 'Book it?',
    });
    expect(body.children).toEqual([]);
  });

  it('answers 404 for an unknown thread and 403 to a resume when read-only', async () => {
    const missing = await getJson<{ error: { code: string } }>('/api/threads/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('CHECKPOINT_NOT_FOUND');
    const response = await fetch(new URL('/api/threads/trip-1/resume', inspector.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'yes' }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'RESUME_NOT_ALLOWED',
    );
    expect((await temp.store.load('trip-1'))!.state.status).toBe('PAUSED');
  });

  it('answers 400 INVALID_PATH to a malformed percent-escape in the path, on every route', async () => {
    for (const path of [
      '/api/threads/%E0%A4%A',
      '/api/threads/%E0%A4%A/history',
      '/api/threads/%E0%A4%A/events',
      '/api/threads/%/events',
      '/api/%E0%A4%A',
      '/%E0%A4%A',
    ]) {
      const answer = await getJson<{ error: { code: string } }>(path);
      expect([path, answer.status, answer.body.error?.code]).toEqual([path, 400, 'INVALID_PATH']);
    }
  });

  it('without an engine, streams a checkpoint event when another process moves the thread', async () => {
    const other = createFixtureEngine(temp.store);
    await runFixtureThread(other, 'trip-3');
    const seen = await waitForEvent(
      new URL('/api/threads/trip-3/events', inspector.url).href,
      (event, data) =>
        event === 'checkpoint' && (data as { status: string }).status === 'COMPLETED',
      { onReady: async () => void (await other.resume(await other.loadThread('trip-3'), 'yes')) },
    );
    expect(seen[0]!.event).toBe('ready');
  });
});

describe('live streams', () => {
  it('leave nothing behind when their readers go: a dozen in a row add no lasting listener', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      // A stream subscribes before it writes `ready`, so once a reader has its `ready`, the adding
      // that would warn (the eleventh listener, if each stream left one) is done, and its warning
      // (emitted on the next tick of the server's work) went out before that event could arrive.
      for (let i = 0; i < 12; i++)
        await waitForEvent(
          new URL('/api/threads/trip-1/events', inspector.url).href,
          (event) => event === 'ready',
        );
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });
});

describe('with an engine', () => {
  it('forwards its events for the thread and resumes only when allowed', async () => {
    const temp2 = tempStore();
    const engine = createFixtureEngine(temp2.store);
    await runFixtureThread(engine, 'live-1');
    const readOnly = await startInspector({ store: temp2.store, engine });
    const refused = await fetch(new URL('/api/threads/live-1/resume', readOnly.url), {
      method: 'POST',
      body: JSON.stringify({ input: 'yes' }),
    });
    expect(refused.status).toBe(403);
    await readOnly.close();

    const live = await startInspector({ store: temp2.store, engine, allowResume: true });
    try {
      const info = await (await fetch(new URL('/api/info', live.url))).json();
      expect(info).toEqual({ live: 'engine', allowResume: true, allowFork: false });
      const seen = await waitForEvent(
        new URL('/api/threads/live-1/events', live.url).href,
        (event) => event === 'thread:completed',
        {
          onReady: async () => {
            const accepted = await fetch(new URL('/api/threads/live-1/resume', live.url), {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ input: 'yes' }),
            });
            expect(accepted.status).toBe(202);
          },
        },
      );
      expect(seen.map((e) => e.event)).toContain('node:completed');
      const again = await fetch(new URL('/api/threads/live-1/resume', live.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'yes' }),
      });
      expect(again.status).toBe(409);
      const detail = (await (
        await fetch(new URL('/api/threads/live-1', live.url))
      ).json()) as ThreadDetail;
      expect(detail.graph.nodes.map((n) => n.id)).toEqual([
        'start',
        'plan',
        'reset',
        'summary',
        'confirm',
        'book',
        'end',
      ]);
      expect(detail.graph.mermaid).toContain('flowchart TD');
    } finally {
      await live.close();
      temp2.dispose();
    }
  });
});
