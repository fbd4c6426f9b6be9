import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ItemResult } from '../output/item-result.js';
import { readScores, type ScoreLine } from '../score/read-scores.js';
import { LONG_TOOL } from '../test-support/qa-engine.js';
import { CHILDREN, spawnChild } from '../test-support/spawn-child.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';

const ITEMS = 1_000;
const SCORERS = ['exact-match', 'trajectory', 'rubric'];

function count(path: string): number {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0;
}

/** The whole JSON lines of a file a kill may have torn. */
function wholeLines<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as T);
}

/** Items with a result but without every scorer's score: what a rerun must score from the store. */
function unscoredResults(out: string): number {
  const scored = new Map<string, number>();
  for (const line of wholeLines<ScoreLine>(join(out, 'scores.jsonl')))
    scored.set(line.itemId, (scored.get(line.itemId) ?? 0) + 1);
  return wholeLines<ItemResult>(join(out, 'results.jsonl')).filter(
    (r) => (scored.get(r.itemId) ?? 0) < SCORERS.length,
  ).length;
}

/** Runs the scored child until it has queued `killAfter` more scores, then SIGKILLs it. */
async function runAndKill(args: (string | number)[], killAfter: number): Promise<number> {
  const child = spawnChild(CHILDREN.scoreCrash, args);
  let scored = 0;
  for await (const line of child.lines)
    if (line.startsWith('scored ') && ++scored >= killAfter) {
      child.process.kill('SIGKILL');
      break;
    }
  const exited = await child.exited;
  expect(exited.signal, exited.stderr).toBe('SIGKILL');
  return scored;
}

describe('a scored run killed with SIGKILL twice and run again', () => {
  it('holds each item’s score of each scorer exactly once', async () => {
    const dir = tempFolder();
    const db = join(dir, 'threads.db');
    const out = join(dir, 'run');
    const input = join(dir, 'data.jsonl');
    writeFileSync(
      input,
      `${Array.from({ length: ITEMS }, (_, i) =>
        JSON.stringify({
          id: `q${i}`,
          q: `question ${i}`,
          expected: `answer: {"found":"QUESTION ${i}"}`,
          calls: [{ name: LONG_TOOL, arguments: { q: `question ${i}` } }],
        }),
      ).join('\n')}\n`,
    );
    const args = [db, out, input, 16];
    const total = ITEMS * SCORERS.length;
    // Killed at random points: somewhere in the first half, then somewhere in what is left.
    const first = 100 + Math.floor(Math.random() * (total / 2 - 100));
    await runAndKill(args, first);
    const afterFirst = count(join(out, 'scores.jsonl'));
    const unscoredFirst = unscoredResults(out);
    const left = total - afterFirst;
    const second = 50 + Math.floor(Math.random() * Math.max(1, left / 2 - 50));
    await runAndKill(args, second);
    const afterSecond = count(join(out, 'scores.jsonl'));
    const unscoredSecond = unscoredResults(out);
    const where = `killed after ${first} scores, then ${second} more (${afterFirst} and ${afterSecond} lines written)`;
    expect(afterSecond, where).toBeLessThan(total);
    // The kills left finished items without some of their scores: the reruns had them to score.
    expect(unscoredFirst + unscoredSecond, where).toBeGreaterThan(0);

    const last = spawnChild(CHILDREN.scoreCrash, args);
    const lines: string[] = [];
    for await (const line of last.lines) lines.push(line);
    const finished = await last.exited;
    expect(finished, finished.stderr).toMatchObject({ code: 0 });

    const results = readLines<ItemResult>(join(out, 'results.jsonl'));
    expect(results).toHaveLength(ITEMS);
    expect(new Set(results.map((r) => r.itemId)).size).toBe(ITEMS);
    expect(results.every((r) => r.status === 'COMPLETED')).toBe(true);

    // Every line whole, and no (item, scorer) twice: readScores refuses a repeat.
    const read = await readScores(out);
    expect(read.tornLine).toBeUndefined();
    for (const scorer of SCORERS) {
      const items = read.scores.get(scorer);
      expect(items?.size, `${scorer}: ${where}`).toBe(ITEMS);
      expect(
        [...items!.values()].every((score) => score === 1),
        scorer,
      ).toBe(true);
    }
    const scores = readLines<ScoreLine>(join(out, 'scores.jsonl'));
    expect(scores, where).toHaveLength(total);
    const summary = JSON.parse(lines.at(-1)!.slice('summary '.length)) as {
      scores: Record<string, { scored: number; failed: number }>;
    };
    for (const scorer of SCORERS)
      expect(summary.scores[scorer]).toMatchObject({ scored: ITEMS, failed: 0 });
  }, 180_000);
});
