import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryCheckpointStore } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { RunnerError } from '../errors/runner-error.js';
import type { ScoreLine } from '../score/read-scores.js';
import { exactMatch } from '../score/scorers/exact-match.js';
import { functionScorer } from '../score/scorers/function-scorer.js';
import { trajectoryScorer } from '../score/scorers/trajectory-scorer.js';
import { LONG_TOOL, qaEngine } from '../test-support/qa-engine.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';
import { runDataset } from './run-dataset.js';
import { scoreRun } from './score-run.js';

const items = ['alpha', 'beta', 'boom'].map((q) => ({
  id: q,
  q,
  expected: `answer: {"found":"${q.toUpperCase()}"}`,
  calls: [{ name: LONG_TOOL, arguments: { q } }],
}));

const run = {
  workflowId: 'qa',
  itemId: 'id',
  threadOptions: (item: unknown) => ({ input: (item as { q: string }).q }),
};

async function finishedRun(): Promise<{ out: string; engine: ReturnType<typeof qaEngine> }> {
  const out = join(tempFolder(), 'run');
  const engine = qaEngine({ store: new InMemoryCheckpointStore() });
  await runDataset({
    ...run,
    engine,
    input: [...items, '{"no":"id"}'],
    output: out,
    runId: 'later',
  });
  return { out, engine };
}

describe('scoreRun', () => {
  it('scores a finished run that had no scorers, reading threads from the store', async () => {
    const { out, engine } = await finishedRun();
    const summary = await scoreRun({
      engine,
      input: items,
      itemId: 'id',
      output: out,
      scorers: [exactMatch(), trajectoryScorer({ expected: 'calls' })],
    });
    expect(summary).toMatchObject({
      runId: 'later',
      pending: 3,
      scored: 3,
      notInInput: 0,
      finished: true,
    });
    const lines = readLines<ScoreLine>(join(out, 'scores.jsonl'));
    const byPair = Object.fromEntries(lines.map((l) => [`${l.itemId} ${l.scorer}`, l.score]));
    expect(byPair).toEqual({
      'alpha exact-match': 1,
      'alpha trajectory': 1,
      'beta exact-match': 1,
      'beta trajectory': 1,
      // boom failed at its model call: no output, no tool call.
      'boom exact-match': 0,
      'boom trajectory': 0,
    });
    // summary.json now says how the run scored.
    const written = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(written.scores).toEqual(summary.scores);
    expect(written.items.total).toBe(4);
  });

  it('scores only what is missing: a new scorer, never a pair twice', async () => {
    const { out, engine } = await finishedRun();
    const options = { engine, input: items, itemId: 'id', output: out };
    await scoreRun({ ...options, scorers: [exactMatch()] });
    const calls: string[] = [];
    const counted = functionScorer('counted', (input) => {
      calls.push(input.itemId);
      return 1;
    });
    const again = await scoreRun({ ...options, scorers: [exactMatch(), counted] });
    expect(again).toMatchObject({ pending: 3, scored: 3 });
    expect(calls.sort()).toEqual(['alpha', 'beta', 'boom']);
    const third = await scoreRun({ ...options, scorers: [exactMatch(), counted] });
    expect(third).toMatchObject({ pending: 0, scored: 0 });
    expect(calls).toHaveLength(3);
    expect(readLines(join(out, 'scores.jsonl'))).toHaveLength(6);
  });

  it('leaves items the input does not hold unscored, and counts them', async () => {
    const { out, engine } = await finishedRun();
    const summary = await scoreRun({
      engine,
      input: items.slice(0, 1),
      itemId: 'id',
      output: out,
      scorers: [exactMatch()],
    });
    expect(summary).toMatchObject({ pending: 3, scored: 1, notInInput: 2 });
  });

  it('refuses a folder that holds no run', async () => {
    const empty = join(tempFolder(), 'empty');
    mkdirSync(empty);
    const error = await scoreRun({
      engine: qaEngine(),
      input: items,
      output: empty,
      scorers: [exactMatch()],
    }).catch((e: unknown) => e);
    expect(RunnerError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('holds no run');
    await expect(
      scoreRun({ engine: qaEngine(), input: items, output: empty, scorers: [] }),
    ).rejects.toMatchObject({ argument: 'scorers' });
  });
});
