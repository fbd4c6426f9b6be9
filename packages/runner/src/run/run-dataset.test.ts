import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryCheckpointStore } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { RunnerError } from '../errors/runner-error.js';
import type { ItemResult } from '../output/item-result.js';
import { qaEngine } from '../test-support/qa-engine.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';
import { runDataset } from './run-dataset.js';
import type { RunProgress } from './run-options.js';

describe('runDataset', () => {
  it('runs every item in its own thread and streams results.jsonl and summary.json', async () => {
    const out = tempFolder();
    const progress: RunProgress[] = [];
    const prepared: string[] = [];
    const summary = await runDataset({
      engine: qaEngine(),
      workflowId: 'qa',
      input: ['alpha', 'beta', 'boom', 'gamma'],
      output: out,
      runId: 'r1',
      concurrency: 2,
      onProgress: (p) => progress.push(p),
      prepareThread: (thread, item) => {
        prepared.push(`${thread.threadId} ${String(item)}`);
      },
    });
    expect(prepared.sort()).toEqual(['r1/0 alpha', 'r1/1 beta', 'r1/2 boom', 'r1/3 gamma']);
    const results = readLines<ItemResult>(join(out, 'results.jsonl'));
    expect(results.map((r) => r.itemId).sort()).toEqual(['0', '1', '2', '3']);
    const byId = Object.fromEntries(results.map((r) => [r.itemId, r]));
    expect(byId['0']).toMatchObject({
      threadId: 'r1/0',
      status: 'COMPLETED',
      output: 'answer: {"found":"ALPHA"}',
      usage: { promptTokens: 20, completionTokens: 10, totalTokens: 30 },
    });
    // One bad item fails alone, with its error; the others go on.
    expect(byId['2']).toMatchObject({ status: 'FAILED', error: { code: 'LLM_CALL_FAILED' } });
    expect(summary.items).toMatchObject({ total: 4, COMPLETED: 3, FAILED: 1 });
    // A failed model call reports no usage.
    expect(summary.tokens.totalTokens).toBe(3 * 30);
    expect(summary.topErrors[0]).toMatchObject({ count: 1, itemId: '2' });
    expect(summary.durationMs.p95).toBeGreaterThanOrEqual(summary.durationMs.p50);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toEqual(summary);
    expect(progress.at(-1)).toMatchObject({ done: 4, failed: 1, total: 4, skipped: 0 });
  });

  it('reads a JSONL file with ids from a field, recording malformed lines with their number', async () => {
    const out = tempFolder();
    const input = join(out, 'data.jsonl');
    writeFileSync(
      input,
      [
        '{"id":"a","question":"first"}',
        '{"id":"b", broken',
        '',
        '{"question":"no id"}',
        '{"id":"a","question":"again"}',
        '{"id":7,"question":"last"}',
      ].join('\n'),
    );
    const summary = await runDataset({
      engine: qaEngine(),
      workflowId: 'qa',
      input,
      itemId: 'id',
      threadOptions: (item) => ({ input: (item as { question: string }).question }),
      output: join(out, 'run'),
      runId: 'file',
    });
    const results = readLines<ItemResult>(join(out, 'run', 'results.jsonl'));
    const byId = Object.fromEntries(results.map((r) => [r.itemId, r]));
    expect(Object.keys(byId).sort()).toEqual(['7', 'a', 'line:2', 'line:4', 'line:5']);
    expect(byId.a).toMatchObject({ status: 'COMPLETED', line: 1 });
    expect(byId['7']).toMatchObject({
      status: 'COMPLETED',
      line: 6,
      output: 'answer: {"found":"LAST"}',
    });
    expect(byId['line:2']).toMatchObject({
      status: 'INVALID',
      line: 2,
      error: { code: 'INPUT_LINE_MALFORMED' },
    });
    expect(byId['line:2']!.error!.message).toContain(':2: not JSON');
    expect(byId['line:4']!.error!.code).toBe('ITEM_ID_INVALID');
    expect(byId['line:5']!.error!.message).toContain('already used');
    expect(summary.items).toMatchObject({ total: 5, COMPLETED: 2, INVALID: 3 });
  });

  it('hands the engine the thread options an item asks for, with its thread id', async () => {
    const engine = qaEngine();
    const given: unknown[] = [];
    const createThread = engine.createThread.bind(engine);
    engine.createThread = (workflowId, options) => {
      given.push(options);
      return createThread(workflowId, options);
    };
    await runDataset({
      engine,
      workflowId: 'qa',
      input: [{ question: 'q0' }, { question: 'q1' }],
      itemId: (_, i) => `i${i}`,
      threadOptions: (item) => ({ input: (item as { question: string }).question }),
      output: tempFolder(),
      runId: 'shapes',
    });
    expect(given).toEqual([
      { threadId: 'shapes/i0', input: 'q0' },
      { threadId: 'shapes/i1', input: 'q1' },
    ]);
  });

  it('after a stop, the same run id skips finished items and resumes the rest, each once', async () => {
    const out = tempFolder();
    const store = new InMemoryCheckpointStore();
    const calls: string[] = [];
    const items = Array.from({ length: 30 }, (_, i) => `item ${i}`);
    const controller = new AbortController();
    const first = await runDataset({
      engine: qaEngine({ store, toolDelayMs: 5, onToolCall: (t) => calls.push(t) }),
      workflowId: 'qa',
      input: items,
      output: out,
      runId: 'resume',
      concurrency: 4,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 10) controller.abort();
      },
    });
    expect(first.finished).toBe(false);
    const finishedFirst = readLines<ItemResult>(join(out, 'results.jsonl')).map((r) => r.threadId);
    const callsBefore = calls.length;
    const second = await runDataset({
      engine: qaEngine({ store, onToolCall: (t) => calls.push(t) }),
      workflowId: 'qa',
      input: items,
      output: out,
      runId: 'resume',
      concurrency: 4,
    });
    const ids = readLines<ItemResult>(join(out, 'results.jsonl')).map((r) => r.itemId);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(second).toMatchObject({ finished: true, resumed: finishedFirst.length });
    expect(second.items.COMPLETED).toBe(30);
    // No finished item ran its tool again.
    const rerun = calls.slice(callsBefore);
    for (const threadId of finishedFirst) expect(rerun).not.toContain(threadId);
  });

  it('refuses a folder of another run, and rate limits on an engine it cannot wrap', async () => {
    const out = tempFolder();
    await runDataset({
      engine: qaEngine(),
      workflowId: 'qa',
      input: ['x'],
      output: out,
      runId: 'one',
    });
    await expect(
      runDataset({ engine: qaEngine(), workflowId: 'qa', input: ['x'], output: out, runId: 'two' }),
    ).rejects.toSatisfy((e) => RunnerError.isInstance(e) && e.code === 'OUTPUT_NOT_OURS');
    await expect(
      runDataset({
        engine: qaEngine(),
        workflowId: 'qa',
        input: [],
        output: out,
        runId: 'one',
        rpm: 10,
      }),
    ).rejects.toSatisfy((e) => InvalidArgumentError.isInstance(e) && e.argument === 'engine');
    await expect(
      runDataset({
        engine: qaEngine(),
        workflowId: 'qa',
        input: [],
        output: out,
        runId: 'one',
        concurrency: 0,
      }),
    ).rejects.toSatisfy((e) => InvalidArgumentError.isInstance(e) && e.argument === 'concurrency');
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
  });

  it.each([
    ['maxSteps', { maxSteps: 0.5 }],
    ['maxSteps', { maxSteps: 0 }],
    ['input', { input: '/nonexistent/data.jsonl' }],
    ['workflowId', { workflowId: 'not-registered' }],
    ['limitOptions.backoffMs', { limitOptions: { backoffMs: -1 } }],
    ['limitOptions.maxRetryAfterMs', { limitOptions: { maxRetryAfterMs: 2 ** 40 } }],
  ] as const)('refuses %s before anything is written (%o)', async (option, bad) => {
    const out = join(tempFolder(), 'run');
    const error = await runDataset({
      engine: qaEngine(),
      workflowId: 'qa',
      input: ['x'],
      output: out,
      runId: 'bad',
      ...bad,
    }).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe(option);
    expect(existsSync(out)).toBe(false);
  });

  it('runs a JSONL file that starts with a byte order mark, its first item included', async () => {
    const dir = tempFolder();
    const input = join(dir, 'data.jsonl');
    writeFileSync(input, '\uFEFF"alpha"\n"beta"\n');
    const summary = await runDataset({
      engine: qaEngine(),
      workflowId: 'qa',
      input,
      output: join(dir, 'run'),
      runId: 'bom',
    });
    expect(summary.items).toMatchObject({ total: 2, COMPLETED: 2, INVALID: 0 });
  });
});
