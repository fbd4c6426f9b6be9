import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { RunnerError } from '../errors/runner-error.js';
import type { ScoreLine } from '../score/read-scores.js';
import { writeFakeRun } from '../test-support/report-runs.js';
import { tempFolder } from '../test-support/temp-folder.js';
import { comparisonReportFile, writeComparisonReport } from './write-comparison-report.js';

const quick = { resamples: 500 };
const ids = Array.from({ length: 20 }, (_, i) => `q${i}`);

/** Two runs: B fixes q0–q7 for `exact` (0 → 1) and breaks q8; `judge` moves by noise. */
function twoRuns(): { a: string; b: string } {
  const root = tempFolder();
  const scores = (run: 'A' | 'B'): ScoreLine[] =>
    ids.flatMap((itemId, i) => [
      {
        itemId,
        scorer: 'exact',
        score: run === 'A' ? (i < 8 ? 0 : 1) : i === 8 ? 0 : 1,
        reason: `${run} says ${itemId}`,
      },
      { itemId, scorer: 'judge', score: run === 'B' && i % 2 === 0 ? 0.6 : 0.5 },
    ]);
  const a = writeFakeRun(join(root, 'a'), {
    runId: 'base:1',
    items: ids.map((itemId) => ({ itemId })),
    scores: [...scores('A'), { itemId: 'q0', scorer: 'old', score: 1 }],
  });
  const b = writeFakeRun(join(root, 'b'), {
    runId: 'next',
    items: ids.map((itemId) => ({ itemId })),
    scores: scores('B'),
  });
  return { a, b };
}

describe('writeComparisonReport', () => {
  it("writes compare-<run id of A>.html into B's folder: scorers, forest plot, changes", async () => {
    const { a, b } = twoRuns();
    const path = await writeComparisonReport(a, b, {
      ...quick,
      inspectorUrl: 'http://127.0.0.1:4319/',
    });
    expect(path).toBe(join(b, 'compare-base_1.html'));
    expect(readdirSync(a)).not.toContain('compare-base_1.html');
    const html = readFileSync(path, 'utf8');
    expect(html).toContain('<h1>Run <code>next</code> against <code>base:1</code></h1>');
    expect(html).toContain('500 resamples, seed 1');
    expect(html).toMatch(
      /<tr data-scorer="exact"><td><code>exact<\/code><\/td><td class="num">20<\/td><td class="num">0\.600 \[[\d.]+, [\d.]+\]<\/td><td class="num">0\.950 \[[\d.]+, [\d.]+\]<\/td><td class="num">\+0\.350 \[\+[\d.]+, \+[\d.]+\]<\/td><td class="verdict better">real<\/td><\/tr>/,
    );
    expect(html).toMatch(/<tr data-scorer="judge">.*?<td class="verdict (noise|better)">/);
    expect(html).toContain('Scorers only in A, not compared: <code>old</code>.');
    // One interval per scorer compared, a bar per changed item.
    expect(html.match(/<g class="interval /g)).toHaveLength(2);
    expect(html).toContain('<g class="interval better"><title>exact: B − A +0.350');
    const exact = html
      .split('<section class="scorer" data-scorer="exact">')[1]!
      .split('</section>')[0]!;
    expect(exact).toContain('9 of 20 items changed: 8 up, 1 down.');
    expect(exact.match(/<rect class="bar up"/g)).toHaveLength(8);
    expect(exact.match(/<rect class="bar down"/g)).toHaveLength(1);
    // The changed items, largest change first, with both reasons and both threads.
    expect(exact).toContain(
      '<tr data-item="q0"><td><code>q0</code></td><td class="num">0.000</td><td class="num">1.000</td><td class="num verdict better">+1.000</td><td class="text reason">A says q0</td><td class="text reason">B says q0</td><td class="thread-a"><a class="thread" href="http://127.0.0.1:4319/#/thread/base%3A1%2Fq0" rel="noreferrer"><code>base:1/q0</code></a></td><td class="thread-b"><a class="thread" href="http://127.0.0.1:4319/#/thread/next%2Fq0" rel="noreferrer"><code>next/q0</code></a></td></tr>',
    );
    const judge = html
      .split('<section class="scorer" data-scorer="judge">')[1]!
      .split('</section>')[0]!;
    expect(judge.match(/<rect class="bar up"/g)).toHaveLength(10);
  });

  it('escapes reasons and ids, and shows thread ids without an inspector or dashes without results', async () => {
    const root = tempFolder();
    const a = writeFakeRun(join(root, 'a'), {
      runId: 'a',
      items: [{ itemId: '<i>x</i>' }],
      scores: [{ itemId: '<i>x</i>', scorer: 's', score: 0, reason: '<script>alert(1)</script>' }],
    });
    const b = writeFakeRun(join(root, 'b'), {
      runId: 'b',
      scores: [{ itemId: '<i>x</i>', scorer: 's', score: 1 }],
    });
    const html = readFileSync(await writeComparisonReport(a, b, quick), 'utf8');
    expect(html).not.toMatch(/<script|<i>/);
    expect(html).toContain('<td class="text reason">&lt;script&gt;alert(1)&lt;/script&gt;</td>');
    expect(html).toContain('<td class="thread-a"><code>a/&lt;i&gt;x&lt;/i&gt;</code></td>');
    expect(html).toContain('<td class="thread-b"><span class="none">—</span></td>');
  });

  it('refuses a bad inspector address, and a run without scores', async () => {
    const { a, b } = twoRuns();
    const bad = await writeComparisonReport(a, b, { inspectorUrl: 'data:text/html,x' }).catch(
      (e: unknown) => e,
    );
    expect(InvalidArgumentError.isInstance(bad)).toBe(true);
    const unscored = writeFakeRun(join(tempFolder(), 'c'), { runId: 'c' });
    const error = await writeComparisonReport(a, unscored).catch((e: unknown) => e);
    expect(RunnerError.isInstance(error) && error.code).toBe('RUN_FOLDER_INVALID');
    expect(readdirSync(unscored)).not.toContain('compare-base_1.html');
  });
});

describe('comparisonReportFile', () => {
  it('names the page after run A, in characters every file system takes', () => {
    expect(comparisonReportFile('eval-2026.11@v2')).toBe('compare-eval-2026.11@v2.html');
    expect(comparisonReportFile('a:b/c\\d')).toBe('compare-a_b_c_d.html');
  });
});
