import { ScriptedLLMClient } from '@skein/core/testing';
import type { LLMClient, LLMRequest } from '@skein/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConcurrencySlotTimeoutError, limitConcurrency, WorkerOptionError } from './index.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

const request: LLMRequest = { threadId: 't', nodeId: 'n', messages: [], tools: [] };

/** A model that counts how many of its calls are in flight, across every wrapper. */
function countingModel(counter: { now: number; max: number }, delayMs: number): LLMClient {
  const inner = new ScriptedLLMClient(() => ({ content: 'ok', delayMs }), { stream: false });
  return {
    name: 'counting',
    async generate(req, options) {
      counter.now++;
      counter.max = Math.max(counter.max, counter.now);
      try {
        return await inner.generate(req, options);
      } finally {
        counter.now--;
      }
    },
  };
}

describe('limitConcurrency', () => {
  it('keeps calls through two separately connected clients (as two processes) under one limit', async () => {
    const counter = { now: 0, max: 0 };
    const model = countingModel(counter, 60);
    const a = limitConcurrency(model, { connectionString: pg.connectionString, key: 'p', max: 2 });
    const b = limitConcurrency(model, { connectionString: pg.connectionString, key: 'p', max: 2 });
    try {
      const calls = Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).generate(request));
      const answers = await Promise.all(calls);
      expect(answers.every((r) => r.message.content === 'ok')).toBe(true);
      expect(counter.max).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('gives up waiting with a typed, retryable error, and on abort', async () => {
    const counter = { now: 0, max: 0 };
    const slow = countingModel(counter, 1_500);
    const holder = limitConcurrency(slow, {
      connectionString: pg.connectionString,
      key: 'q',
      max: 1,
    });
    const waiter = limitConcurrency(slow, {
      connectionString: pg.connectionString,
      key: 'q',
      max: 1,
      waitTimeoutMs: 100,
    });
    try {
      const held = holder.generate(request);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const error = await waiter.generate(request).catch((e: unknown) => e);
      expect(ConcurrencySlotTimeoutError.isInstance(error)).toBe(true);
      expect((error as ConcurrencySlotTimeoutError).retryable).toBe(true);
      const controller = new AbortController();
      const aborted = holder.generate(request, { signal: controller.signal });
      controller.abort(new Error('stop waiting'));
      await expect(aborted).rejects.toThrow('stop waiting');
      await held;
      expect(counter.max).toBe(1);
    } finally {
      await holder.close();
      await waiter.close();
    }
  });

  it('refuses a bad limit before connecting', () => {
    const model = countingModel({ now: 0, max: 0 }, 0);
    expect(() =>
      limitConcurrency(model, { connectionString: pg.connectionString, key: 'x', max: 0 }),
    ).toThrow(WorkerOptionError);
  });
});
