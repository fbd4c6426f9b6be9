import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunnerError } from '../errors/runner-error.js';
import { tempFolder } from '../test-support/temp-folder.js';
import type { ItemResult } from './item-result.js';
import { readResults } from './read-results.js';
import { RunWriter } from './run-writer.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

function result(itemId: string, runId = 'r'): ItemResult {
  return { itemId, threadId: `${runId}/${itemId}`, status: 'COMPLETED', usage, durationMs: 1 };
}

const ours = { runId: 'r' };

describe('results.jsonl', () => {
  it('is written with the export sizes, and read back whole after a torn last line', async () => {
    const dir = tempFolder();
    const writer = new RunWriter(dir, 'results.jsonl', ['export.jsonl']);
    writer.add(result('a'), new Map([['export.jsonl', ['{"x":1}']]]));
    writer.add(result('b'), new Map());
    writer.close();
    const path = join(dir, 'results.jsonl');
    const whole = readFileSync(path, 'utf8');
    writeFileSync(path, `${whole}{"itemId":"c","sta`);
    const seen: string[] = [];
    const previous = await readResults(path, (r) => seen.push(r.itemId), ours);
    expect(seen).toEqual(['a', 'b']);
    expect(previous).toMatchObject({ count: 2, exportBytes: { 'export.jsonl': 8 }, tornBytes: 18 });
    expect(readFileSync(path, 'utf8')).toBe(whole);
  });

  it('treats a whole last line without its newline as torn too', async () => {
    const path = join(tempFolder(), 'results.jsonl');
    writeFileSync(path, `${JSON.stringify(result('a'))}\n${JSON.stringify(result('b'))}`);
    const seen: string[] = [];
    await readResults(path, (r) => seen.push(r.itemId), ours);
    expect(seen).toEqual(['a']);
  });

  it('refuses a file with a bad line before the last, leaving it untouched', async () => {
    const path = join(tempFolder(), 'results.jsonl');
    const text = `not json\n${JSON.stringify(result('a'))}\n`;
    writeFileSync(path, text);
    await expect(readResults(path, () => undefined, ours)).rejects.toSatisfy(
      (e) => RunnerError.isInstance(e) && e.code === 'OUTPUT_NOT_OURS',
    );
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it.each([
    ['a whole line of someone else', '{"experiment":"baseline","score":0.71}\n'],
    ['a last line without its newline that no result starts with', '{"experiment":"baseline"}'],
    ['a result of another run', `${JSON.stringify(result('b', 'other'))}\n`],
    ['a blank line', '\n'],
  ])('refuses %s, leaving the file untouched', async (_, line) => {
    const path = join(tempFolder(), 'results.jsonl');
    const text = `${JSON.stringify(result('a'))}\n${line}`;
    writeFileSync(path, text);
    const error = await readResults(path, () => undefined, ours).catch((e: unknown) => e);
    expect(RunnerError.isInstance(error)).toBe(true);
    expect((error as RunnerError).code).toBe('OUTPUT_NOT_OURS');
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('gives each result the export sizes after its own lines, even when written together', async () => {
    const dir = tempFolder();
    const writer = new RunWriter(dir, 'results.jsonl', ['export.jsonl']);
    writer.add(result('a'), new Map([['export.jsonl', ['{"x":1}']]]));
    writer.add(result('b'), new Map([['export.jsonl', ['{"x":22}', '{"x":3}']]]));
    writer.add(result('c'), new Map());
    writer.close();
    const sizes = readFileSync(join(dir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as ItemResult).exportBytes);
    expect(sizes).toEqual([{ 'export.jsonl': 8 }, { 'export.jsonl': 25 }, { 'export.jsonl': 25 }]);
  });
});
