import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { RunnerError } from '../errors/runner-error.js';
import { writeFakeRun } from '../test-support/report-runs.js';
import { tempFolder } from '../test-support/temp-folder.js';
import { REPORT_CSP } from './html-page.js';
import { RUN_REPORT_FILE, writeRunReport } from './write-run-report.js';

const INSPECTOR = 'http://127.0.0.1:4319/';
const quick = { resamples: 500 };

/** A run of 30 items scored by `exact` (0 or 1) and `judge` (tenths); q3 failed. */
function scoredRun(folder = join(tempFolder(), 'run-1')): string {
  const ids = Array.from({ length: 30 }, (_, i) => `q${i}`);
  return writeFakeRun(folder, {
    runId: 'run-1',
    summary: true,
    items: ids.map((itemId) =>
      itemId === 'q3'
        ? { itemId, status: 'FAILED', error: { code: 'LLM_CALL_FAILED', message: 'boom' } }
        : { itemId, output: `answer of ${itemId}` },
    ),
    scores: ids.flatMap((itemId, i) => [
      { itemId, scorer: 'exact', score: i % 3 === 0 ? 0 : 1, reason: `exact ${itemId}` },
      { itemId, scorer: 'judge', score: (i % 10) / 10 },
    ]),
  });
}

/** The rows of the worst-items table of a scorer, as [item, score] pairs. */
function worstRows(html: string, scorer: string): string[][] {
  const section = html
    .split(`<section class="scorer" data-scorer="${scorer}">`)[1]!
    .split('</section>')[0]!;
  return [
    ...section.matchAll(
      /<tr data-item="([^"]+)"><td class="num">\d+<\/td><td><code>.*?<\/code><\/td><td class="num">([\d.]+)<\/td>/g,
    ),
  ].map((m) => [m[1]!, m[2]!]);
}

describe('writeRunReport', () => {
  it('writes report.html: the summary, and per scorer its mean, a histogram and its worst items', async () => {
    const folder = scoredRun();
    const path = await writeRunReport(folder, { ...quick, inspectorUrl: INSPECTOR });
    expect(path).toBe(join(folder, RUN_REPORT_FILE));
    const html = readFileSync(path, 'utf8');
    expect(html).toContain('<h1>Run <code>run-1</code></h1>');
    expect(html).toContain('From <code>summary.json</code>');
    expect(html).toContain(
      '<span data-testid="items-total">30</span> (29 completed, 1 failed, 0 paused, 0 invalid)',
    );
    expect(html).toContain('450 (300 prompt, 150 completion)');
    expect(html).toContain('p50 100 ms, p95 180 ms, max 2.50 s');
    // Ten bars per scorer; exact's scores are 0 or 1.
    expect(html.match(/<rect class="bar"/g)).toHaveLength(20);
    expect(html).toContain('<title>[0.0, 0.1): 10 items</title>');
    expect(html).toMatch(
      /Mean <strong>0\.667 \[0\.\d+, 0\.\d+\]<\/strong> over 30 items; 10 items below 1/,
    );
    // The lowest first, then by id; an item scored 1 is never among the worst.
    expect(worstRows(html, 'exact').map(([id]) => id)).toEqual([
      'q0',
      'q12',
      'q15',
      'q18',
      'q21',
      'q24',
      'q27',
      'q3',
      'q6',
      'q9',
    ]);
    expect(worstRows(html, 'judge')).toHaveLength(20);
    expect(worstRows(html, 'judge').slice(0, 4)).toEqual([
      ['q0', '0.000'],
      ['q10', '0.000'],
      ['q20', '0.000'],
      ['q1', '0.100'],
    ]);
    // Reasons, outputs or errors, and the thread in the inspector.
    expect(html).toContain('<td class="text reason">exact q0</td>');
    expect(html).toContain('<td class="text output">answer of q0</td>');
    expect(html).toContain('<td>FAILED</td><td class="text output">LLM_CALL_FAILED: boom</td>');
    expect(html).toContain(
      '<a class="thread" href="http://127.0.0.1:4319/#/thread/run-1%2Fq0" rel="noreferrer"><code>run-1/q0</code></a>',
    );
  });

  it('shows thread ids without an inspector, and counts from results.jsonl without a summary', async () => {
    const folder = writeFakeRun(join(tempFolder(), 'r'), {
      runId: 'r',
      items: [
        { itemId: 'a', durationMs: 50 },
        { itemId: 'b', durationMs: 150 },
        { itemId: 'line:3', status: 'INVALID' },
      ],
      scores: [
        { itemId: 'a', scorer: 'exact', score: 0 },
        { itemId: 'line:3', scorer: 'exact', score: 0 },
      ],
    });
    const html = readFileSync(await writeRunReport(folder, quick), 'utf8');
    expect(html).toContain('Counted from <code>results.jsonl</code>');
    expect(html).toContain('3</span> (2 completed, 0 failed, 0 paused, 1 invalid)');
    expect(html).toContain('p50 100 ms, p95 150 ms, max 150 ms');
    expect(html).toContain('<td><code>r/a</code></td>');
    expect(html).not.toContain('<a class="thread"');
    // An INVALID item has no thread.
    expect(html).toMatch(/data-item="line:3">.*<td><span class="none">—<\/span><\/td><\/tr>/);
  });

  it('reports a run without scores, saying so', async () => {
    const folder = writeFakeRun(join(tempFolder(), 'r'), { runId: 'r', items: [{ itemId: 'a' }] });
    const html = readFileSync(await writeRunReport(folder), 'utf8');
    expect(html).toContain('This folder has no scores.jsonl');
    expect(html).not.toContain('<svg');
  });

  it('shows untrusted text as text: no markup, script or handler gets into the page', async () => {
    const folder = writeFakeRun(join(tempFolder(), 'r'), {
      runId: 'r',
      items: [{ itemId: '<img src=x onerror=alert(1)>', output: '</td><script>alert(2)</script>' }],
      scores: [
        {
          itemId: '<img src=x onerror=alert(1)>',
          scorer: '<b>judge</b>',
          score: 0,
          reason: '<script>alert(3)</script>" onmouseover="alert(4)',
        },
      ],
    });
    const html = readFileSync(
      await writeRunReport(folder, { inspectorUrl: 'http://127.0.0.1:4319/?a="b"' }),
      'utf8',
    );
    expect(html).not.toMatch(/<script|<img|<b>/i);
    // No attribute is a handler: within tags, once their (escaped, quoted) values are gone.
    const tags = html.replace(/="[^"]*"/g, '=""').match(/<[^>]*>/g)!;
    expect(tags.filter((tag) => /\son\w+\s*=/i.test(tag))).toEqual([]);
    expect(html).toContain(
      '&lt;script&gt;alert(3)&lt;/script&gt;&quot; onmouseover=&quot;alert(4)',
    );
    expect(html).toContain('&lt;/td&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain(
      'href="http://127.0.0.1:4319/?a=%22b%22#/thread/r%2F%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"',
    );
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(REPORT_CSP).toContain("default-src 'none'");
  });

  it('writes nothing but the page, and refuses what is not a run or not an inspector address', async () => {
    const folder = scoredRun();
    const before = readdirSync(folder).map((name) => [
      name,
      readFileSync(join(folder, name), 'utf8'),
    ]);
    await writeRunReport(folder, quick);
    await writeRunReport(folder, quick);
    const after = readdirSync(folder).filter((name) => name !== RUN_REPORT_FILE);
    expect(after.map((name) => [name, readFileSync(join(folder, name), 'utf8')])).toEqual(before);

    const empty = tempFolder();
    const error = await writeRunReport(empty).catch((e: unknown) => e);
    expect(RunnerError.isInstance(error) && error.code).toBe('RUN_FOLDER_INVALID');
    expect((error as Error).message).toContain('holds no run');
    expect(readdirSync(empty)).toEqual([]);

    const missing = await writeRunReport(join(empty, 'nope')).catch((e: unknown) => e);
    expect((missing as Error).message).toContain('is not a folder');

    const bad = await writeRunReport(folder, { inspectorUrl: 'javascript:alert(1)' }).catch(
      (e: unknown) => e,
    );
    expect(InvalidArgumentError.isInstance(bad) && bad.argument).toBe('inspectorUrl');
  });

  it('refuses a results line that is not a result, and ignores a torn last line', async () => {
    const folder = scoredRun();
    const results = join(folder, 'results.jsonl');
    const text = readFileSync(results, 'utf8');
    writeFileSync(results, `${text}{"itemId":"q9`);
    expect(readFileSync(await writeRunReport(folder, quick), 'utf8')).toContain(
      'Line 31 of <code>results.jsonl</code> has no newline',
    );
    writeFileSync(results, `${text}{"nope":1}\n`);
    const error = await writeRunReport(folder, quick).catch((e: unknown) => e);
    expect((error as Error).message).toContain('line 31 is not a result of a run');
  });
});
