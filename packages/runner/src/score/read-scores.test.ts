import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunnerError } from '../errors/runner-error.js';
import { tempFolder } from '../test-support/temp-folder.js';
import { readScores, SCORES_FILE, type ScoreLine } from './read-scores.js';

function runFolder(text: string): string {
  const folder = tempFolder();
  writeFileSync(join(folder, SCORES_FILE), text);
  return folder;
}

const line = (itemId: string, scorer: string, score: number, reason?: string) =>
  `${JSON.stringify({ itemId, scorer, score, ...(reason === undefined ? {} : { reason }) })}\n`;

async function refusal(folder: string): Promise<RunnerError> {
  const error = await readScores(folder).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(RunnerError.isInstance(error), String(error)).toBe(true);
  return error as RunnerError;
}

/** Plain objects, for toEqual. */
function plain(scores: ReadonlyMap<string, ReadonlyMap<string, number>>) {
  return Object.fromEntries(
    [...scores].map(([scorer, items]) => [scorer, Object.fromEntries(items)]),
  );
}

describe('readScores', () => {
  it('reads scores by scorer, then by item', async () => {
    const folder = runFolder(
      line('q1', 'exact', 1) + line('q2', 'exact', 0, 'wrong city') + line('q1', 'judge', 0.75),
    );
    const read = await readScores(folder);
    expect(read.file).toBe(join(folder, SCORES_FILE));
    expect(read.tornLine).toBeUndefined();
    expect(plain(read.scores)).toEqual({ exact: { q1: 1, q2: 0 }, judge: { q1: 0.75 } });
    // Only lines that give a reason are in `reasons`.
    expect(
      Object.fromEntries([...read.reasons].map(([s, m]) => [s, Object.fromEntries(m)])),
    ).toEqual({ exact: { q2: 'wrong city' } });
  });

  it('reads an empty file as no scores', async () => {
    expect((await readScores(runFolder(''))).scores.size).toBe(0);
  });

  it.each([
    ['the start of a line', '{"itemId":"q3","sco'],
    ['a few bytes', '{"it'],
    ['a whole score without its newline', '{"itemId":"q3","scorer":"exact","score":1}'],
  ])('ignores a torn last line: %s, leaving the file as it is', async (_, torn) => {
    const text = line('q1', 'exact', 1) + line('q2', 'exact', 0) + torn;
    const folder = runFolder(text);
    const read = await readScores(folder);
    expect(read.tornLine).toBe(3);
    expect(plain(read.scores)).toEqual({ exact: { q1: 1, q2: 0 } });
    expect(readFileSync(join(folder, SCORES_FILE), 'utf8')).toBe(text);
  });

  it('refuses a last line without a newline that no score starts with', async () => {
    const error = await refusal(runFolder(`${line('q1', 'exact', 1)}garbage`));
    expect(error.code).toBe('SCORES_LINE_INVALID');
    expect(error.line).toBe(2);
  });

  it.each([
    ['not JSON', 'not json', 'is not JSON'],
    ['an array', '[1]', 'is not a JSON object'],
    ['no item id', '{"scorer":"exact","score":1}', '"itemId"'],
    ['an empty scorer', '{"itemId":"q","scorer":"","score":1}', '"scorer"'],
    ['a score above 1', '{"itemId":"q","scorer":"exact","score":1.5}', '(1.5)'],
    ['a score below 0', '{"itemId":"q","scorer":"exact","score":-0.1}', '(-0.1)'],
    ['a score as text', '{"itemId":"q","scorer":"exact","score":"1"}', '("1")'],
    ['no score', '{"itemId":"q","scorer":"exact"}', '(missing)'],
    [
      'a reason that is not text',
      '{"itemId":"q","scorer":"exact","score":1,"reason":2}',
      '"reason"',
    ],
  ])('refuses %s on a middle line, naming the file and line', async (_, bad, says) => {
    const folder = runFolder(`${line('q1', 'exact', 1)}${bad}\n${line('q2', 'exact', 0)}`);
    const error = await refusal(folder);
    const file = join(folder, SCORES_FILE);
    expect(error.code).toBe('SCORES_LINE_INVALID');
    expect(error.file).toBe(file);
    expect(error.line).toBe(2);
    expect(error.message).toContain(`${file}:2: `);
    expect(error.message).toContain(says);
  });

  it('refuses a repeated item and scorer, naming both lines', async () => {
    const folder = runFolder(
      line('q1', 'exact', 1) + line('q1', 'judge', 1) + line('q1', 'exact', 0),
    );
    const error = await refusal(folder);
    expect(error.code).toBe('SCORES_LINE_INVALID');
    expect(error.line).toBe(3);
    expect(error.message).toContain('repeats item "q1" of scorer "exact" (first on line 1)');
  });

  it('refuses a missing folder or scores file (RUN_FOLDER_INVALID)', async () => {
    const missing = join(tempFolder(), 'nope');
    expect(await refusal(missing)).toMatchObject({ code: 'RUN_FOLDER_INVALID', path: missing });
    const empty = tempFolder();
    mkdirSync(join(empty, 'sub'));
    const error = await refusal(empty);
    expect(error.code).toBe('RUN_FOLDER_INVALID');
    expect(error.path).toBe(join(empty, SCORES_FILE));
  });

  const scoreLines = fc.uniqueArray(
    fc.record({
      itemId: fc.string({ minLength: 1, maxLength: 8 }),
      scorer: fc.constantFrom('exact', 'judge'),
      score: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    { minLength: 2, maxLength: 12, selector: (l) => `${l.scorer}\u0000${l.itemId}` },
  );
  const expected = (lines: readonly ScoreLine[]) => {
    const scores: Record<string, Record<string, number>> = {};
    for (const l of lines) scores[l.scorer] = { ...scores[l.scorer], [l.itemId]: l.score + 0 };
    return scores;
  };

  it('reads every line but a torn last one, wherever the tear', async () => {
    await fc.assert(
      fc.asyncProperty(scoreLines, fc.nat(), async (lines, at) => {
        const last = JSON.stringify(lines.at(-1));
        const torn = last.slice(0, 1 + (at % last.length));
        const whole = lines.slice(0, -1);
        const read = await readScores(
          runFolder(whole.map((l) => `${JSON.stringify(l)}\n`).join('') + torn),
        );
        expect(read.tornLine).toBe(lines.length);
        expect(plain(read.scores)).toEqual(expected(whole));
      }),
      { numRuns: 50 },
    );
  });

  it('refuses a bad line anywhere before the last, naming it', async () => {
    await fc.assert(
      fc.asyncProperty(
        scoreLines,
        fc.nat(),
        fc.constantFrom('{', '{"itemId":"x","scorer":"exact","score":2}', ''),
        async (lines, at, bad) => {
          const index = at % (lines.length - 1);
          const text = lines.map((l, i) => `${i === index ? bad : JSON.stringify(l)}\n`).join('');
          const error = await refusal(runFolder(text));
          expect(error.code).toBe('SCORES_LINE_INVALID');
          expect(error.line).toBe(index + 1);
        },
      ),
      { numRuns: 50 },
    );
  });
});
