import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ItemResult } from '../output/item-result.js';
import {
  CHILDREN,
  QA_WORKFLOW_MODULE,
  spawnChild,
  THROWING_WORKFLOW_MODULE,
} from '../test-support/spawn-child.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';
import { formatProgress } from './progress-line.js';

async function cli(
  args: string[],
  env: Record<string, string> = {},
  whileRunning?: (child: ReturnType<typeof spawnChild>) => Promise<void>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnChild(CHILDREN.cli, args, env);
  const during = whileRunning?.(child);
  const lines: string[] = [];
  for await (const line of child.lines) lines.push(line);
  await during;
  const { code, stderr } = await child.exited;
  return { code, stdout: lines.join('\n'), stderr };
}

describe('skein run', () => {
  it('runs a JSONL file, prints one line per error and a summary, and resumes with --resume', async () => {
    const dir = tempFolder();
    const input = join(dir, 'data.jsonl');
    writeFileSync(input, '{"q":"one"}\n{"q":"boom"}\nnot json\n{"q":"two"}\n');
    const module = QA_WORKFLOW_MODULE;
    const out = join(dir, 'runs', 'first');
    const args = [
      'run',
      module,
      '--input',
      input,
      '--out',
      out,
      '--concurrency',
      '2',
      '--rpm',
      '6000',
      '--fine-tuning',
    ];
    const first = await cli(args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/✗ item 2 \(line 2\) FAILED at answer: LLM_CALL_FAILED/);
    expect(first.stderr).toMatch(/✗ item line:3 \(line 3\) INVALID: INPUT_LINE_MALFORMED/);
    expect(first.stdout).toContain('4 (2 completed, 1 failed, 0 paused, 1 invalid)');
    expect(first.stdout).toContain('rate limits');
    expect(readLines<ItemResult>(join(out, 'results.jsonl'))).toHaveLength(4);
    expect(readLines(join(out, 'finetune.jsonl'))).toHaveLength(2);

    const again = await cli(args);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('pass --resume');

    const resumed = await cli([...args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('4 from earlier runs');
    expect(readLines(join(out, 'results.jsonl'))).toHaveLength(4);
  }, 60_000);

  it('stops on Ctrl-C leaving a run that --resume finishes, each item once', async () => {
    const dir = tempFolder();
    const input = join(dir, 'data.jsonl');
    writeFileSync(input, Array.from({ length: 40 }, (_, i) => `{"q":"q${i}"}\n`).join(''));
    const out = join(dir, 'run');
    const args = ['run', QA_WORKFLOW_MODULE, '--input', input, '--out', out, '--concurrency', '2'];
    const stopped = await cli(args, { QA_TOOL_DELAY_MS: '400' }, async (child) => {
      // Ctrl-C once the first result is written.
      while (
        !existsSync(join(out, 'results.jsonl')) ||
        statSync(join(out, 'results.jsonl')).size === 0
      )
        await new Promise((r) => setTimeout(r, 50));
      child.process.kill('SIGINT');
    });
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain('run again with --resume');
    const kept = readLines<ItemResult>(join(out, 'results.jsonl')).length;
    expect(kept).toBeLessThan(40);
    const resumed = await cli([...args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const ids = readLines<ItemResult>(join(out, 'results.jsonl')).map((r) => r.itemId);
    expect(new Set(ids).size).toBe(40);
    expect(ids).toHaveLength(40);
  }, 90_000);

  it('names a bad flag and shows the usage', async () => {
    const result = await cli([
      'run',
      'x.ts',
      '--input',
      'a.jsonl',
      '--out',
      'o',
      '--concurrency',
      'many',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'INVALID_ARGUMENT: Dataset run option --concurrency: must be a positive integer, got "many"',
    );
    expect(result.stderr).toContain('Usage: skein run');
  }, 60_000);
});

describe('skein run refuses before it writes anything', () => {
  it('an --out folder it did not create, exiting non-zero with every file as it was', async () => {
    const dir = tempFolder();
    const input = join(dir, 'data.jsonl');
    writeFileSync(input, '{"q":"one"}\n');
    const out = join(dir, 'results');
    mkdirSync(out);
    const files = {
      'finetune.jsonl': '{"messages":[{"role":"user","content":"mine"}]}\n',
      'summary.json': '{"operator":"summary"}\n',
      'notes.txt': 'do not lose these',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(out, name), text);
    const result = await cli([
      'run',
      QA_WORKFLOW_MODULE,
      '--input',
      input,
      '--out',
      out,
      '--fine-tuning',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('OUTPUT_NOT_EMPTY');
    for (const [name, text] of Object.entries(files))
      expect(readFileSync(join(out, name), 'utf8')).toBe(text);
    expect(existsSync(join(out, 'run.json'))).toBe(false);
  }, 60_000);

  it('--max-steps 0.5, naming the flag and the value', async () => {
    const dir = tempFolder();
    const input = join(dir, 'data.jsonl');
    writeFileSync(input, '{"q":"one"}\n');
    const out = join(dir, 'run');
    const result = await cli([
      'run',
      QA_WORKFLOW_MODULE,
      '--input',
      input,
      '--out',
      out,
      '--max-steps',
      '0.5',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('INVALID_ARGUMENT');
    expect(result.stderr).toContain('--max-steps');
    expect(result.stderr).toContain('"0.5"');
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('a workflow module whose factory throws: WORKFLOW_MODULE_FAILED, naming the module', async () => {
    const dir = tempFolder();
    const input = join(dir, 'data.jsonl');
    writeFileSync(input, '{"q":"one"}\n');
    const out = join(dir, 'run');
    const result = await cli(['run', THROWING_WORKFLOW_MODULE, '--input', input, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `WORKFLOW_MODULE_FAILED: Workflow module ${THROWING_WORKFLOW_MODULE}`,
    );
    expect(result.stderr).toContain('OPENAI_API_KEY is not set');
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});

describe('skein compare', () => {
  function runWithScores(lines: readonly (readonly [string, string, number])[], tail = ''): string {
    const folder = tempFolder();
    const text = lines
      .map(([itemId, scorer, score]) => `${JSON.stringify({ itemId, scorer, score })}\n`)
      .join('');
    writeFileSync(join(folder, 'scores.jsonl'), text + tail);
    return folder;
  }
  const ids = Array.from({ length: 12 }, (_, i) => `q${i}`);

  it('prints a row per scorer and the changed items, or JSON; exit 0 either way', async () => {
    const a = runWithScores(
      [...ids.map((id) => [id, 'exact', 0.25] as const), ['q0', 'judge', 1]],
      '{"itemId":"q1","sco',
    );
    const b = runWithScores([
      ...ids.map((id) => [id, 'exact', 0.75] as const),
      ['q0', 'judge', 1],
      ['q0', 'new', 1],
    ]);
    const text = await cli(['compare', a, b, '--resamples', '2000']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('2000 resamples, seed 1');
    expect(text.stdout).toMatch(
      /exact\s+12\s+0\.250 \[0\.250, 0\.250\]\s+0\.750 \[0\.750, 0\.750\]\s+\+0\.500 \[\+0\.500, \+0\.500\]\s+real/,
    );
    expect(text.stdout).toMatch(/judge\s+1\s+.*within noise/);
    expect(text.stdout).toContain('scorers only in B, not compared: new');
    expect(text.stdout).toContain('exact: 12 of 12 items changed (12 up, 0 down)');
    expect(text.stderr).toContain(`${join(a, 'scores.jsonl')}: line 14 has no newline`);

    const json = await cli(['compare', a, b, '--json', '--seed', '9']);
    expect(json.code, json.stderr).toBe(0);
    const comparison = JSON.parse(json.stdout);
    expect(comparison).toMatchObject({
      seed: 9,
      resamples: 10_000,
      runA: { folder: a, tornLine: 14 },
      scorersOnlyInB: ['new'],
      scorers: [
        { scorer: 'exact', n: 12, difference: { mean: 0.5, real: true } },
        { scorer: 'judge', n: 1, difference: { mean: 0, real: false } },
      ],
    });
    expect(comparison.scorers[0].changed).toHaveLength(12);
  }, 60_000);

  it('exits 1 for a missing run or a bad line, 2 for bad usage', async () => {
    const a = runWithScores([['q0', 'exact', 1]]);
    const missing = await cli(['compare', a, join(a, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `skein compare failed: RUN_FOLDER_INVALID: Run folder ${join(a, 'nope')}`,
    );
    const bad = runWithScores(
      [['q0', 'exact', 1]],
      'oops\n{"itemId":"q1","scorer":"exact","score":0}\n',
    );
    const badLine = await cli(['compare', a, bad]);
    expect(badLine.code).toBe(1);
    expect(badLine.stderr).toContain(
      `SCORES_LINE_INVALID: ${join(bad, 'scores.jsonl')}:2: is not JSON`,
    );
    const usage = await cli(['compare', a, '--seed', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: skein compare');
  }, 60_000);
});

describe('formatProgress', () => {
  it('shows the bar, counts, rate, ETA and tokens', () => {
    const last: ItemResult = {
      itemId: 'a',
      status: 'COMPLETED',
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 1,
    };
    expect(
      formatProgress({
        done: 40,
        failed: 2,
        skipped: 10,
        running: 4,
        total: 100,
        tokens: 12_345,
        elapsedMs: 4000,
        rate: 10,
        etaMs: 65_000,
        last,
      }),
    ).toBe(
      '[##########..........] 50/100 · 2 failed · 10 from before · 10.0/s · ETA 1m05s · 12.3k tokens',
    );
  });
});
