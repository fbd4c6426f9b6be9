import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryCheckpointStore } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { RunnerError } from '../errors/runner-error.js';
import type { ItemResult } from '../output/item-result.js';
import { readScores, type ScoreLine } from '../score/read-scores.js';
import type { ScoreFailure } from '../score/score-writer.js';
import type { Scorer } from '../score/scorer.js';
import { exactMatch } from '../score/scorers/exact-match.js';
import { functionScorer } from '../score/scorers/function-scorer.js';
import { trajectoryScorer } from '../score/scorers/trajectory-scorer.js';
import type { ScoreReport } from '../score/scoring.js';
import { formatSummary } from '../summary/format-summary.js';
import { LONG_TOOL, qaEngine } from '../test-support/qa-engine.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';
import { runDataset } from './run-dataset.js';

const items = [
  { id: 'a', q: 'alpha', expected: 'answer: {"found":"ALPHA"}', calls: [{ name: LONG_TOOL }] },
  { id: 'b', q: 'beta', expected: 'something else', calls: [{ name: LONG_TOOL }, { name: 'x' }] },
  { id: 'c', q: 'boom', expected: 'never', calls: [{ name: LONG_TOOL }] },
];

const base = {
  workflowId: 'qa',
  input: items,
  itemId: 'id',
  threadOptions: (item: unknown) => ({ input: (item as { q: string }).q }),
};

/** Scorers that count their calls by item. */
function counted(calls: string[]): Scorer[] {
  return [
    exactMatch(),
    trajectoryScorer({ expected: 'calls' }),
    functionScorer('length', (input) => {
      calls.push(input.itemId);
      return Math.min(1, String(input.result.output ?? '').length / 100);
    }),
  ];
}

const pairs = (lines: ScoreLine[]) => lines.map((l) => `${l.itemId} ${l.scorer}`).sort();

describe('runDataset with scorers', () => {
  it('scores every item with every scorer once, as items finish', async () => {
    const out = tempFolder();
    const reports: ScoreReport[] = [];
    const summary = await runDataset({
      ...base,
      engine: qaEngine(),
      input: [...items, 'not an object'],
      itemId: (item, i) => (typeof item === 'object' ? (item as { id: string }).id : `n${i}`),
      output: out,
      runId: 'scored',
      scorers: counted([]),
      onScore: (report) => reports.push(report),
    });
    const lines = readLines<ScoreLine>(join(out, 'scores.jsonl'));
    // The string item has no expected value: no score of exact-match nor trajectory, two errors.
    expect(pairs(lines)).toEqual([
      'a exact-match',
      'a length',
      'a trajectory',
      'b exact-match',
      'b length',
      'b trajectory',
      'c exact-match',
      'c length',
      'c trajectory',
      'n3 length',
    ]);
    for (const text of readFileSync(join(out, 'scores.jsonl'), 'utf8').trim().split('\n'))
      expect(text.startsWith('{"itemId":"')).toBe(true);
    const byPair = Object.fromEntries(lines.map((l) => [`${l.itemId} ${l.scorer}`, l]));
    expect(byPair['a exact-match']).toMatchObject({ score: 1 });
    expect(byPair['b exact-match']).toMatchObject({ score: 0 });
    // The failed item is scored too: no output, 0.
    expect(byPair['c exact-match']).toMatchObject({
      score: 0,
      reason: 'no output (the item is FAILED)',
    });
    expect(byPair['b trajectory']).toMatchObject({
      score: 0.5,
      details: { missing: [{ name: 'x' }] },
    });
    // skein compare reads lines with details as any other.
    expect((await readScores(out)).scores.get('trajectory')?.get('b')).toBe(0.5);
    const errors = readLines<ScoreFailure>(join(out, 'score-errors.jsonl'));
    expect(errors.map((e) => `${e.itemId} ${e.scorer} ${e.code}`).sort()).toEqual([
      'n3 exact-match SCORE_INPUT_MISSING',
      'n3 trajectory SCORE_INPUT_MISSING',
    ]);
    expect(reports).toHaveLength(10);
    expect(reports.find((r) => r.itemId === 'a' && r.scorer === 'exact-match')).toMatchObject({
      runId: 'scored',
      threadId: 'scored/a',
      score: 1,
    });
    expect(summary.scores).toEqual({
      'exact-match': { scored: 3, mean: 1 / 3, failed: 1 },
      // c failed before any tool call: its trajectory scores 0.
      trajectory: { scored: 3, mean: 1.5 / 3, failed: 1 },
      length: { scored: 4, mean: expect.any(Number), failed: 0 },
    });
    expect(formatSummary(summary)).toContain(
      'exact-match: mean 0.333 over 3 items, 1 gave no score',
    );
  });

  it('never fails an item or the run for a scorer that throws, answers badly or never answers', async () => {
    const out = tempFolder();
    const summary = await runDataset({
      ...base,
      engine: qaEngine(),
      output: out,
      runId: 'hostile',
      scoreTimeoutMs: 50,
      scorers: [
        functionScorer('throws', () => {
          throw new Error('scorer bug');
        }),
        functionScorer('too-high', () => 2),
        functionScorer('silent', () => new Promise<number>(() => undefined)),
        exactMatch(),
      ],
    });
    expect(summary.items).toMatchObject({ COMPLETED: 2, FAILED: 1 });
    expect(
      readLines<ItemResult>(join(out, 'results.jsonl')).filter((r) => r.status === 'COMPLETED'),
    ).toHaveLength(2);
    expect(pairs(readLines(join(out, 'scores.jsonl')))).toEqual([
      'a exact-match',
      'b exact-match',
      'c exact-match',
    ]);
    const errors = readLines<ScoreFailure>(join(out, 'score-errors.jsonl'));
    expect(new Set(errors.map((e) => `${e.scorer} ${e.code}`))).toEqual(
      new Set(['throws SCORER_FAILED', 'too-high SCORE_INVALID', 'silent SCORER_TIMEOUT']),
    );
    expect(errors).toHaveLength(9);
    expect(summary.scores?.silent).toEqual({ scored: 0, mean: null, failed: 3 });
  });

  it('on resume, cuts a torn score line and scores only what the file lacks, from stored threads', async () => {
    const out = tempFolder();
    const engine = qaEngine({ store: new InMemoryCheckpointStore() });
    const first: string[] = [];
    await runDataset({ ...base, engine, output: out, runId: 'resumed', scorers: counted(first) });
    expect(first.sort()).toEqual(['a', 'b', 'c']);
    const file = join(out, 'scores.jsonl');
    const whole = readFileSync(file, 'utf8').trim().split('\n');
    // A crash lost b's length line and tore c's.
    const kept = whole.filter((l) => !(l.includes('"b"') && l.includes('"length"')));
    const c = kept.findIndex((l) => l.includes('"c"') && l.includes('"length"'));
    const torn = kept[c]!;
    kept.splice(c, 1);
    writeFileSync(file, `${kept.join('\n')}\n${torn.slice(0, 20)}`);
    const second: string[] = [];
    // An extra scorer joins the run on resume: it scores every item, the others only b and c.
    const summary = await runDataset({
      ...base,
      engine,
      output: out,
      runId: 'resumed',
      scorers: [...counted(second), functionScorer('late', () => 1)],
    });
    expect(second.sort()).toEqual(['b', 'c']);
    const lines = readLines<ScoreLine>(file);
    expect(pairs(lines)).toEqual(
      ['a', 'b', 'c']
        .flatMap((id) => ['exact-match', 'late', 'length', 'trajectory'].map((s) => `${id} ${s}`))
        .sort(),
    );
    // Scored from the stored thread: the trajectory still sees the tool call.
    expect(lines.find((l) => l.itemId === 'b' && l.scorer === 'length')?.score).toBeGreaterThan(0);
    expect(summary.resumed).toBe(3);
    expect(summary.scores?.late).toEqual({ scored: 3, mean: 1, failed: 0 });
    // A third run has nothing left to score.
    const third: string[] = [];
    await runDataset({ ...base, engine, output: out, runId: 'resumed', scorers: counted(third) });
    expect(third).toEqual([]);
    expect(readLines(file)).toHaveLength(12);
  });

  it('refuses a scores file with a line it did not write, changing nothing', async () => {
    const out = tempFolder();
    await runDataset({
      ...base,
      engine: qaEngine(),
      output: out,
      runId: 'mine',
      scorers: [exactMatch()],
    });
    const file = join(out, 'scores.jsonl');
    const text = `${readFileSync(file, 'utf8')}{"hello":"world"}\n{"itemId":"a","sc`;
    writeFileSync(file, text);
    const error = await runDataset({
      ...base,
      engine: qaEngine(),
      output: out,
      runId: 'mine',
      scorers: [exactMatch()],
    }).catch((e: unknown) => e);
    expect(RunnerError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'OUTPUT_NOT_OURS', path: file });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses bad scorers and time limits before writing anything', async () => {
    const out = join(tempFolder(), 'never');
    const cases: [Record<string, unknown>, string][] = [
      [{ scorers: [exactMatch(), exactMatch()] }, 'scorers[1].name'],
      [{ scorers: [{ name: 'x' }] }, 'scorers[0].score'],
      [{ scorers: 'exact' }, 'scorers'],
      [{ scorers: [exactMatch()], scoreTimeoutMs: 0 }, 'scoreTimeoutMs'],
    ];
    for (const [options, argument] of cases) {
      const error = await runDataset({
        ...base,
        engine: qaEngine(),
        output: out,
        runId: 'bad',
        ...options,
      } as never).catch((e: unknown) => e);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ argument });
    }
    expect(existsSync(out)).toBe(false);
  });
});
