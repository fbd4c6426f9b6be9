import { createOpenAIClient } from '@skein/openai';
import type { RateBudget } from '@skein/spec';
import { InvalidArgumentError } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { runDataset } from '../run/run-dataset.js';
import { qaEngine } from '../test-support/qa-engine.js';
import { type QaServer, startQaServer } from '../test-support/qa-server.js';
import { tempFolder } from '../test-support/temp-folder.js';
import { RateLimiter } from './rate-limiter.js';

let server: QaServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A budget kept elsewhere (asynchronous, like a database's), noting what it was told. */
function journalBudget(fail = false): RateBudget & { journal: string[] } {
  const journal: string[] = [];
  const inner = new RateLimiter({ rpm: 60_000 });
  return {
    journal,
    async acquire(tokens, signal) {
      journal.push('acquire');
      await inner.acquire(tokens, signal);
    },
    async settle(estimated, actual) {
      journal.push(`settle ${actual}`);
      if (fail) throw new Error('budget unreachable');
      inner.settle(estimated, actual);
    },
    async pauseFor(ms) {
      journal.push(`pause ${ms}`);
      if (fail) throw new Error('budget unreachable');
      inner.pauseFor(ms);
    },
  };
}

function run(url: string, limiter: RateBudget, runId: string) {
  return runDataset({
    engine: ({ limitModel }) =>
      qaEngine({ llm: limitModel(createOpenAIClient({ baseURL: url, apiKey: 'k', model: 'm' })) }),
    workflowId: 'qa',
    input: ['a', 'b'],
    output: tempFolder(),
    runId,
    concurrency: 1,
    limiter,
  });
}

describe('any RateBudget as the limiter of a run', () => {
  it('draws on the budget, settles real usage and pauses it on 429', async () => {
    server = await startQaServer({ refusals: { times: 2, retryAfterMs: 20 } });
    const budget = journalBudget();
    const summary = await run(server.url, budget, 'any-budget');
    expect(summary.items.COMPLETED).toBe(2);
    // Two refused requests, then two model calls per item.
    expect(budget.journal.filter((e) => e === 'acquire')).toHaveLength(2 + 4);
    expect(budget.journal.filter((e) => e === 'pause 20')).toHaveLength(2);
    expect(budget.journal.filter((e) => e === 'settle 0')).toHaveLength(2);
    expect(budget.journal.filter((e) => e === 'settle 15')).toHaveLength(4);
    // The run counted its own requests: the budget itself keeps no stats.
    expect(summary.rateLimits).toMatchObject({ requests: 6, rateLimited: 2 });
  });

  it('finishes items whose answer the budget failed to hear about', async () => {
    server = await startQaServer({ refusals: { times: 1, retryAfterMs: 20 } });
    const budget = journalBudget(true);
    const summary = await run(server.url, budget, 'deaf-budget');
    expect(summary.items.COMPLETED).toBe(2);
    expect(budget.journal).toContain('pause 20');
  });

  it("counts each run's own requests when runs share a RateLimiter", async () => {
    server = await startQaServer({ refusals: { times: 0, retryAfterMs: 20 } });
    const shared = new RateLimiter({ rpm: 60_000 });
    const first = await run(server.url, shared, 'shared-1');
    const second = await run(server.url, shared, 'shared-2');
    expect(first.rateLimits?.requests).toBe(4);
    expect(second.rateLimits?.requests).toBe(4);
    expect(shared.stats.requests).toBe(8);
  });

  it('refuses a limiter that is not a RateBudget', async () => {
    const error = await runDataset({
      engine: () => qaEngine(),
      workflowId: 'qa',
      input: ['a'],
      output: tempFolder(),
      runId: 'bad-limiter',
      limiter: { acquire: async () => {} } as unknown as RateBudget,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
    expect((error as InvalidArgumentError).message).toContain('limiter');
  });
});
