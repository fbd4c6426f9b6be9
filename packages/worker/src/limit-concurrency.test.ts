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

/**
 * A model that counts how many of its calls are in flight, across every wrapper, and answers
 * them only when the test releases them. Calls that merely took a while (a model delay of a few
 * ms) could end before the next slot was granted on a busy machine, or outlast a wait timeout.
 */
function gatedModel(counter: { now: number; max: number }): {
  model: LLMClient;
  release(): void;
} {
  const inner = new ScriptedLLMClient(() => ({ content: 'ok' }), { stream: false });
  const waiting: (() => void)[] = [];
  return {
    model: {
      name: 'counting',
      async generate(req, options) {
        counter.now++;
        counter.max = Math.max(counter.max, counter.now);
        try {
          // Like a real model, it stops at the caller's abort.
          await new Promise<void>((resolve, reject) => {
            const signal = options?.signal;
            if (signal?.aborted) return reject(signal.reason);
            waiting.push(resolve);
            signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          });
          return await inner.generate(req, options);
        } finally {
          counter.now--;
        }
      },
    },
    release() {
      for (const answer of waiting.splice(0)) answer();
    },
  };
}

/** Polls until `check` holds; the test's own timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('limitConcurrency', () => {
  it('keeps calls through two separately connected clients (as two processes) under one limit', async () => {
    const counter = { now: 0, max: 0 };
    const { model, release } = gatedModel(counter);
    const a = limitConcurrency(model, { connectionString: pg.connectionString, key: 'p', max: 2 });
    const b = limitConcurrency(model, { connectionString: pg.connectionString, key: 'p', max: 2 });
    try {
      const calls = Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).generate(request));
      // Two at a time are let in; each pair answers once both are in, then the next pair.
      let settled = 0;
      const count = () => void settled++;
      for (const call of calls) call.then(count, count);
      while (settled < calls.length) {
        await until(() => counter.now >= Math.min(2, calls.length - settled));
        const target = settled + counter.now;
        release();
        await until(() => settled >= target);
      }
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
    const { model: slow, release } = gatedModel(counter);
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
      // The slot is taken once the model has the call; it keeps it until released.
      await until(() => counter.now === 1);
      const error = await waiter.generate(request).catch((e: unknown) => e);
      expect(ConcurrencySlotTimeoutError.isInstance(error)).toBe(true);
      expect((error as ConcurrencySlotTimeoutError).retryable).toBe(true);
      const controller = new AbortController();
      const aborted = holder.generate(request, { signal: controller.signal });
      controller.abort(new Error('stop waiting'));
      // Whether the abort reaches the call as it waits for the slot or once it has it, the call
      // ends with the abort's reason.
      release();
      await expect(aborted).rejects.toThrow('stop waiting');
      await held;
      expect(counter.max).toBe(1);
    } finally {
      await holder.close();
      await waiter.close();
    }
  });

  it('stops waiting at an abort that came while it asked for the slot', async () => {
    const counter = { now: 0, max: 0 };
    const { model: slow, release } = gatedModel(counter);
    const holder = limitConcurrency(slow, {
      connectionString: pg.connectionString,
      key: 'r',
      max: 1,
    });
    const waiter = limitConcurrency(slow, {
      connectionString: pg.connectionString,
      key: 'r',
      max: 1,
      waitTimeoutMs: 600_000,
    });
    try {
      const held = holder.generate(request);
      await until(() => counter.now === 1);
      const controller = new AbortController();
      const waiting = waiter.generate(request, { signal: controller.signal });
      // The first look for a free slot is under way: no abort listener is registered yet.
      controller.abort(new Error('stop waiting'));
      // Settles while the slot is still held (the wait would otherwise last waitTimeoutMs).
      await expect(waiting).rejects.toThrow('stop waiting');
      release();
      await held;
    } finally {
      await holder.close();
      await waiter.close();
    }
  });

  it('refuses a bad limit before connecting', () => {
    const { model } = gatedModel({ now: 0, max: 0 });
    expect(() =>
      limitConcurrency(model, { connectionString: pg.connectionString, key: 'x', max: 0 }),
    ).toThrow(WorkerOptionError);
  });
});
