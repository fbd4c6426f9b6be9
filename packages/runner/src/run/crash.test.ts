import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateFineTuningLine } from '../export/validate-fine-tuning-line.js';
import type { ItemResult } from '../output/item-result.js';
import { CHILDREN, spawnChild } from '../test-support/spawn-child.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';

const ITEMS = 200;

/** Results whose line is whole (a SIGKILL can tear the last one). */
function wholeResults(path: string): ItemResult[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .slice(0, -1)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as ItemResult];
      } catch {
        return [];
      }
    });
}

describe('a run killed with SIGKILL and run again', () => {
  it('outputs every item exactly once and never repeats a finished item’s tool calls', async () => {
    const dir = tempFolder();
    const db = join(dir, 'threads.db');
    const out = join(dir, 'run');
    const input = join(dir, 'data.jsonl');
    writeFileSync(
      input,
      `${Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ id: `q${i}`, q: `question ${i}` })).join('\n')}\n`,
    );
    const firstLog = join(dir, 'calls-1.log');
    const secondLog = join(dir, 'calls-2.log');

    const first = spawnChild(CHILDREN.crash, [db, out, input, firstLog, 8]);
    for await (const line of first.lines) {
      if (line.startsWith('done ') && Number(line.slice(5)) >= ITEMS / 2) {
        first.process.kill('SIGKILL');
        break;
      }
    }
    const killed = await first.exited;
    expect(killed.signal).toBe('SIGKILL');
    const before = wholeResults(join(out, 'results.jsonl'));
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(ITEMS);

    const second = spawnChild(CHILDREN.crash, [db, out, input, secondLog, 8]);
    const lines: string[] = [];
    for await (const line of second.lines) lines.push(line);
    const finished = await second.exited;
    expect(finished, finished.stderr).toMatchObject({ code: 0 });

    const results = readLines<ItemResult>(join(out, 'results.jsonl'));
    const ids = results.map((r) => r.itemId);
    expect(ids).toHaveLength(ITEMS);
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: ITEMS }, (_, i) => `q${i}`)));
    expect(results.every((r) => r.status === 'COMPLETED')).toBe(true);

    // Items already in results.jsonl before the kill made no tool call in the second run.
    const rerunCalls = new Set(
      existsSync(secondLog) ? readFileSync(secondLog, 'utf8').split('\n').filter(Boolean) : [],
    );
    for (const result of before) expect(rerunCalls.has(result.threadId!)).toBe(false);

    // The fine-tuning export holds one valid line per item too, aligned with its mapping file.
    const tuning = readLines(join(out, 'finetune.jsonl'));
    const mappings = readLines<{ itemId: string }>(join(out, 'finetune.tool-names.jsonl'));
    expect(tuning).toHaveLength(ITEMS);
    expect(new Set(mappings.map((m) => m.itemId)).size).toBe(ITEMS);
    for (const line of tuning) expect(validateFineTuningLine(line)).toEqual([]);
    const summary = JSON.parse(lines.at(-1)!.slice('summary '.length)) as { resumed: number };
    expect(summary.resumed).toBe(before.length);
  }, 120_000);
});
