import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFakeRun } from '../test-support/report-runs.js';
import { CHILDREN, spawnChild } from '../test-support/spawn-child.js';
import { tempFolder } from '../test-support/temp-folder.js';
import { reportCommand } from './report-command.js';

function collect() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { write: (text: string) => (out.stderr += text) },
    },
  };
}

function twoRuns(): { a: string; b: string } {
  const root = tempFolder();
  const ids = ['q1', 'q2', 'q3'];
  const run = (runId: string, score: (i: number) => number) =>
    writeFakeRun(join(root, runId), {
      runId,
      summary: true,
      items: ids.map((itemId) => ({ itemId })),
      scores: ids.map((itemId, i) => ({ itemId, scorer: 'exact', score: score(i) })),
    });
  return { a: run('base', () => 0), b: run('next', (i) => (i === 0 ? 0 : 1)) };
}

async function cli(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnChild(CHILDREN.cli, args);
  const lines: string[] = [];
  for await (const line of child.lines) lines.push(line);
  const { code, stderr } = await child.exited;
  return { code, stdout: lines.join('\n'), stderr };
}

describe('skein report', () => {
  it("writes the run's page, and with --compare the comparison's, printing their paths", async () => {
    const { a, b } = twoRuns();
    const { out, io } = collect();
    const code = await reportCommand(
      ['report', b, '--compare', a, '--inspector', 'http://127.0.0.1:4319', '--resamples', '300'],
      io,
    );
    expect(code, out.stderr).toBe(0);
    expect(out.stdout).toBe(`${join(b, 'report.html')}\n${join(b, 'compare-base.html')}\n`);
    expect(readFileSync(join(b, 'report.html'), 'utf8')).toContain(
      'href="http://127.0.0.1:4319/#/thread/next%2Fq1"',
    );
    expect(readFileSync(join(b, 'compare-base.html'), 'utf8')).toContain(
      '<h1>Run <code>next</code> against <code>base</code></h1>',
    );
    expect(existsSync(join(a, 'report.html'))).toBe(false);
  });

  it('exits 2 for bad usage, 1 for a folder that is not a run', async () => {
    const usage = collect();
    expect(await reportCommand(['report'], usage.io)).toBe(2);
    expect(usage.out.stderr).toContain('Usage: skein report');
    const help = collect();
    expect(await reportCommand(['report', '--help'], help.io)).toBe(0);
    expect(help.out.stdout).toContain('compare-<run id of A>.html');
    const empty = collect();
    const folder = tempFolder();
    expect(await reportCommand(['report', folder], empty.io)).toBe(1);
    expect(empty.out.stderr).toContain('skein report failed: RUN_FOLDER_INVALID');
  });

  it('runs from the skein command, and skein compare --html writes the comparison page', async () => {
    const { a, b } = twoRuns();
    const report = await cli(['report', b, '--resamples', '300']);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toBe(join(b, 'report.html'));
    const compare = await cli(['compare', a, b, '--json', '--html', '--resamples', '300']);
    expect(compare.code, compare.stderr).toBe(0);
    expect(JSON.parse(compare.stdout)).toMatchObject({ resamples: 300 });
    expect(compare.stderr).toContain(`wrote ${join(b, 'compare-base.html')}`);
    expect(readFileSync(join(b, 'compare-base.html'), 'utf8')).toContain('300 resamples');
  }, 60_000);
});
