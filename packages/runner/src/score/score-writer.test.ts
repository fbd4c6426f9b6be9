import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../test-support/temp-folder.js';
import { ScoreWriter } from './score-writer.js';
import type { ScoreValue } from './scorer.js';

const score = fc.record(
  {
    itemId: fc.string({ minLength: 1 }),
    scorer: fc.constantFrom('exact', 'judge', 'a "quoted" name'),
    score: fc.double({ min: 0, max: 1, noNaN: true }),
    reason: fc.oneof(fc.constantFrom('same', 'different'), fc.string()),
    details: fc.jsonValue(),
  },
  { requiredKeys: ['itemId', 'scorer', 'score'] },
);

describe('ScoreWriter', () => {
  it('writes each score as JSON.stringify writes its line, itemId first', () => {
    fc.assert(
      fc.property(fc.array(score, { maxLength: 20 }), (scores) => {
        const folder = tempFolder();
        const writer = new ScoreWriter(folder);
        for (const { itemId, scorer, ...value } of scores)
          writer.addScore(itemId, scorer, value as ScoreValue);
        writer.close();
        const expected = scores.map(({ itemId, scorer, score, reason, details }) => {
          // The fields in the order of a line.
          const line: Record<string, unknown> = { itemId, scorer, score };
          if (reason !== undefined) line.reason = reason;
          if (details !== undefined) line.details = details;
          return `${JSON.stringify(line)}\n`;
        });
        expect(readFileSync(join(folder, 'scores.jsonl'), 'utf8')).toBe(expected.join(''));
      }),
      { numRuns: 50 },
    );
  });

  it('appends failed calls to score-errors.jsonl', () => {
    const folder = tempFolder();
    const writer = new ScoreWriter(folder);
    writer.addError({ itemId: 'q1', scorer: 'judge', code: 'SCORER_TIMEOUT', message: 'slow' });
    writer.close();
    expect(readFileSync(join(folder, 'score-errors.jsonl'), 'utf8')).toBe(
      '{"itemId":"q1","scorer":"judge","code":"SCORER_TIMEOUT","message":"slow"}\n',
    );
    expect(readFileSync(join(folder, 'scores.jsonl'), 'utf8')).toBe('');
  });
});

describe('ScoreWriter with lines larger than its buffer', () => {
  it('writes them whole, in order, among small ones', () => {
    const folder = tempFolder();
    const writer = new ScoreWriter(folder);
    const big = { score: 1, details: { text: 'é'.repeat(40_000) } };
    writer.addScore('a', 'rubric', { score: 0.5 });
    writer.addScore('b', 'rubric', big);
    writer.addScore('c', 'rubric', { score: 0 });
    for (let i = 0; i < 3_000; i++) writer.addScore(`n${i}`, 'exact', { score: 1 });
    writer.close();
    const lines = readFileSync(join(folder, 'scores.jsonl'), 'utf8').split('\n').slice(0, -1);
    expect(lines).toHaveLength(3_003);
    expect(lines.map((l) => JSON.parse(l).itemId).slice(0, 4)).toEqual(['a', 'b', 'c', 'n0']);
    expect(JSON.parse(lines[1]!)).toEqual({ itemId: 'b', scorer: 'rubric', ...big });
  });
});
