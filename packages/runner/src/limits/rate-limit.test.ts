import { join } from 'node:path';
import { createOpenAIClient } from '@skein/openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { ItemResult } from '../output/item-result.js';
import { runDataset } from '../run/run-dataset.js';
import { LONG_TOOL, qaEngine } from '../test-support/qa-engine.js';
import { type QaServer, startQaServer } from '../test-support/qa-server.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';
import { RateLimiter } from './rate-limiter.js';

let server: QaServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('rate limits against an OpenAI-compatible server answering 429', () => {
  it('backs off on 429 with the retry-after and finishes every item', async () => {
    server = await startQaServer({ refusals: { times: 3, retryAfterMs: 30 } });
    const url = server.url;
    const out = tempFolder();
    const summary = await runDataset({
      engine: ({ limitModel }) =>
        qaEngine({
          llm: limitModel(createOpenAIClient({ baseURL: url, apiKey: 'k', model: 'm' })),
        }),
      workflowId: 'qa',
      input: ['a', 'b', 'c', 'd'],
      output: out,
      runId: 'limited',
      concurrency: 2,
      rpm: 6_000,
      tpm: 1_000_000,
      prices: { m: { inputPerMillion: 1_000, outputPerMillion: 2_000 } },
    });
    expect(summary.items.COMPLETED).toBe(4);
    expect(summary.rateLimits).toMatchObject({ rateLimited: 3, requests: 8 + 3 });
    // Three refused requests, then two model calls per item.
    expect(server.requests).toHaveLength(3 + 8);
    expect(summary.cost).toEqual({ model: 'm', amount: (80 * 1_000 + 40 * 2_000) / 1e6 });
    const results = readLines<ItemResult>(join(out, 'results.jsonl'));
    expect(results.every((r) => r.status === 'COMPLETED')).toBe(true);
    expect(results[0]!.output).toContain('answer:');
    expect(LONG_TOOL.length).toBeGreaterThan(64);
  });

  it('gives up on an item after the allowed retries, recording RATE_LIMITED, and goes on', async () => {
    server = await startQaServer({ refusals: { times: 3, retryAfterMs: 1 } });
    const url = server.url;
    const limiter = new RateLimiter({ rpm: 60_000 });
    const summary = await runDataset({
      engine: ({ limitModel }) =>
        qaEngine({
          llm: limitModel(createOpenAIClient({ baseURL: url, apiKey: 'k', model: 'm' })),
        }),
      workflowId: 'qa',
      input: ['a', 'b'],
      output: tempFolder(),
      runId: 'gives-up',
      concurrency: 1,
      limiter,
      limitOptions: { maxRateLimitRetries: 1 },
    });
    expect(summary.items).toMatchObject({ FAILED: 1, COMPLETED: 1 });
    expect(summary.topErrors[0]!.message).toContain('rate limited');
    expect(limiter.stats.rateLimited).toBe(3);
  });
});
