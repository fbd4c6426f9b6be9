import { readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryCheckpointStore } from '@skein/core';
import { describe, expect, it } from 'vitest';
import type { ItemResult } from '../output/item-result.js';
import { qaEngine } from '../test-support/qa-engine.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';
import { runDataset } from './run-dataset.js';

const ITEMS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const RESULTS = 'results.jsonl';
const TUNING = 'finetune.jsonl';
const MAPPING = 'finetune.tool-names.jsonl';
const ANSWERS = 'toolbench/G1.answers.jsonl';

function run(out: string, store: InMemoryCheckpointStore, first = false) {
  return runDataset({
    // The first run's items finish together, so their results share one write, as in a busy run.
    engine: qaEngine(first ? { store, toolBarrier: ITEMS.length } : { store }),
    workflowId: 'qa',
    input: ITEMS,
    output: out,
    runId: 'once',
    concurrency: ITEMS.length,
    exports: { fineTuning: true, toolBench: { split: 'G1' } },
  });
}

/** Cuts `file` in the middle of its `line`-th line (from 0), as a crash while writing it would. */
function tear(path: string, line: number): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  const start = Buffer.byteLength(
    lines
      .slice(0, line)
      .map((l) => `${l}\n`)
      .join(''),
  );
  truncateSync(path, start + Math.floor(Buffer.byteLength(lines[line]!) / 2));
}

function expectEachItemOnce(out: string): void {
  const ids = ITEMS.map((_, i) => String(i));
  const results = readLines<ItemResult>(join(out, RESULTS));
  expect(results.map((r) => r.itemId).sort()).toEqual(ids);
  expect(results.every((r) => r.status === 'COMPLETED')).toBe(true);
  // Fine-tuning lines carry no id: one whole line per completed item, and the mapping beside it
  // names each item once.
  expect(readLines(join(out, TUNING))).toHaveLength(ITEMS.length);
  expect(
    readLines<{ itemId: string }>(join(out, MAPPING))
      .map((m) => m.itemId)
      .sort(),
  ).toEqual(ids);
  expect(
    readLines<{ query_id: string }>(join(out, ANSWERS))
      .map((a) => a.query_id)
      .sort(),
  ).toEqual(ids);
  const split = JSON.parse(readFileSync(join(out, 'toolbench', 'G1.json'), 'utf8')) as object;
  expect(Object.keys(split).sort()).toEqual(ids);
}

describe('a resume after a crash tore a file of the run', () => {
  it.each([
    ['results.jsonl, in its last line', RESULTS, 4],
    ['results.jsonl, in its third line', RESULTS, 2],
    ['finetune.jsonl, in its third line', TUNING, 2],
    ['the fine-tuning mapping, in its first line', MAPPING, 0],
    ['the ToolBench answers, in their fourth line', ANSWERS, 3],
  ])('leaves every file with each item exactly once: %s', async (_, file, line) => {
    const out = tempFolder();
    const store = new InMemoryCheckpointStore();
    await run(out, store, true);
    expectEachItemOnce(out);
    tear(join(out, file), line);
    const resumed = await run(out, store);
    expect(resumed.items.COMPLETED).toBe(ITEMS.length);
    expectEachItemOnce(out);
    // And once more, now that nothing is torn: nothing changes.
    const files = [RESULTS, TUNING, MAPPING, ANSWERS].map((f) =>
      readFileSync(join(out, f), 'utf8'),
    );
    await run(out, store);
    expect(
      [RESULTS, TUNING, MAPPING, ANSWERS].map((f) => readFileSync(join(out, f), 'utf8')),
    ).toEqual(files);
  });
});
