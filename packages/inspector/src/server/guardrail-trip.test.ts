import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadDetail, ThreadSummary } from '../model/types.js';
import { createFixtureEngine, runGuardedThread } from '../test-support/fixture-thread.js';
import { tempStore } from '../test-support/temp-store.js';
import type { RunningInspector } from './inspector-options.js';
import { startInspector } from './start-inspector.js';

const temp = tempStore();
let inspector: RunningInspector;

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(new URL(path, inspector.url));
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const TRIP = {
  name: 'noSecrets',
  stage: 'output',
  reason: 'the answer gives the vault code away',
};

beforeAll(async () => {
  const result = await runGuardedThread(createFixtureEngine(temp.store));
  expect(result.status).toBe('FAILED');
  // The store alone: what the checkpoint holds is what the inspector shows.
  inspector = await startInspector({ store: temp.store, pollIntervalMs: 20 });
});

afterAll(async () => {
  await inspector.close();
  temp.dispose();
});

describe('a thread a guardrail stopped', () => {
  it('has its guardrail, stage and reason in the thread detail', async () => {
    const detail = await getJson<ThreadDetail>('/api/threads/stopped-1');
    expect(detail.summary.status).toBe('FAILED');
    expect(detail.summary.lastError).toMatchObject({
      code: 'GUARDRAIL_TRIPPED',
      nodeId: 'answer',
      guardrail: TRIP,
    });
    // The answer it stopped was never stored.
    expect(detail.messages.some((m) => m.role === 'assistant')).toBe(false);
  });

  it('has it in the thread list, and a search for the guardrail finds it', async () => {
    const { threads } = await getJson<{ threads: ThreadSummary[] }>('/api/threads?text=noSecrets');
    expect(threads.map((t) => [t.threadId, t.lastError?.guardrail])).toEqual([['stopped-1', TRIP]]);
  });
});
