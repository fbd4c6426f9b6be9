import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScoreLine } from '../score/read-scores.js';
import type { ScoreFailure } from '../score/score-writer.js';
import { LONG_TOOL } from '../test-support/qa-engine.js';
import {
  CHILDREN,
  QA_WORKFLOW_MODULE,
  SCORED_WORKFLOW_MODULE,
  spawnChild,
} from '../test-support/spawn-child.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';

async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnChild(CHILDREN.cli, args, env);
  const lines: string[] = [];
  for await (const line of child.lines) lines.push(line);
  const { code, stderr } = await child.exited;
  return { code, stdout: lines.join('\n'), stderr };
}

function dataset(dir: string): string {
  const input = join(dir, 'data.jsonl');
  writeFileSync(
    input,
    ['one', 'boom', 'two']
      .map((q) =>
        JSON.stringify({
          id: q,
          q,
          expected: `answer: {"found":"${q.toUpperCase()}"}`,
          calls: [{ name: LONG_TOOL }],
        }),
      )
      .join('\n'),
  );
  return input;
}

const pairs = (path: string) =>
  readLines<ScoreLine>(path)
    .map((l) => `${l.itemId} ${l.scorer} ${l.score}`)
    .sort();

describe('skein score', () => {
  it('scores a run made without --score, once, reading its threads from the module’s store', async () => {
    const dir = tempFolder();
    const input = dataset(dir);
    const out = join(dir, 'run');
    const env = { SCORED_DB: join(dir, 'threads.db') };
    const run = await cli(['run', SCORED_WORKFLOW_MODULE, '--input', input, '--out', out], env);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(out, 'scores.jsonl'))).toBe(false);

    const args = ['score', out, '--module', SCORED_WORKFLOW_MODULE, '--input', input];
    const scored = await cli(args, env);
    expect(scored.code, scored.stderr).toBe(0);
    expect(scored.stdout).toContain('scored 3 of 3 items lacking a score');
    expect(scored.stdout).toContain('exact-match: mean 0.667 over 3 items');
    expect(scored.stdout).toContain('fails: mean – over 0 items, 3 gave no score');
    expect(scored.stderr).toMatch(
      /✗ score fails of item one: SCORER_FAILED Scorer fails threw: this scorer always fails/,
    );
    expect(pairs(join(out, 'scores.jsonl'))).toEqual([
      'boom exact-match 0',
      'boom trajectory 0',
      'one exact-match 1',
      'one trajectory 1',
      'two exact-match 1',
      'two trajectory 1',
    ]);
    expect(readLines<ScoreFailure>(join(out, 'score-errors.jsonl'))).toHaveLength(3);

    // Again: only the scorer that failed is tried, and nothing is written twice.
    const again = await cli(args, env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('scored 3 of 3 items lacking a score');
    expect(readLines(join(out, 'scores.jsonl'))).toHaveLength(6);
  }, 60_000);

  it('scores as items finish with skein run --score', async () => {
    const dir = tempFolder();
    const input = dataset(dir);
    const out = join(dir, 'run');
    const env = { SCORED_DB: join(dir, 'threads.db') };
    const run = await cli(
      [
        'run',
        SCORED_WORKFLOW_MODULE,
        '--input',
        input,
        '--out',
        out,
        '--score',
        '--score-timeout',
        '5000',
      ],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/scores\s+exact-match: mean 0\.667 over 3 items/);
    expect(run.stderr).toContain('✗ score fails of item two: SCORER_FAILED');
    expect(pairs(join(out, 'scores.jsonl'))).toHaveLength(6);
  }, 60_000);

  it('refuses --score for a module without scorers, and bad usage, with exit code 2', async () => {
    const dir = tempFolder();
    const input = dataset(dir);
    const noScorers = await cli([
      'run',
      QA_WORKFLOW_MODULE,
      '--input',
      input,
      '--out',
      join(dir, 'run'),
      '--score',
    ]);
    expect(noScorers.code).toBe(2);
    expect(noScorers.stderr).toContain('gives no scorers');
    expect(existsSync(join(dir, 'run', 'results.jsonl'))).toBe(false);
    const usage = await cli(['score', join(dir, 'run'), '--input', input]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--module');
    expect(usage.stderr).toContain('Usage: skein score');
    const help = await cli(['score', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: skein score <run folder>');
  }, 60_000);
});
