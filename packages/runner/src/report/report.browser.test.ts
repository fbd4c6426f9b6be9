import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, skipBrowserTests } from '@skein/testkit/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreLine } from '../score/read-scores.js';
import { writeFakeRun } from '../test-support/report-runs.js';
import { tempFolder } from '../test-support/temp-folder.js';
import { inspectorThreadUrl } from './inspector-link.js';
import { writeComparisonReport } from './write-comparison-report.js';
import { writeRunReport } from './write-run-report.js';

// playwright-core's types come through @skein/testkit/browser, which launches it.
type Browser = Awaited<ReturnType<typeof launchChromium>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

const ids = Array.from({ length: 24 }, (_, i) => `q${i}`);
const HOSTILE = '<script>alert("reason")</script><img src=x onerror=alert(1)>';

/** Run A scores `exact` 0 on q0–q9; run B fixes them and breaks q20; `judge` in tenths. */
function scores(run: 'A' | 'B'): ScoreLine[] {
  return ids.flatMap((itemId, i) => {
    const exact = run === 'A' ? (i < 10 ? 0 : 1) : i === 20 ? 0 : 1;
    return [
      {
        itemId,
        scorer: 'exact',
        score: exact,
        reason: itemId === 'q7' ? HOSTILE : `exact ${itemId}`,
      },
      { itemId, scorer: 'judge', score: ((i + (run === 'B' ? 1 : 0)) % 11) / 10 },
    ];
  });
}

/** What a page did that it should not: console errors, script errors, failed or outside requests. */
async function open(page: Page, path: string): Promise<{ problems: string[] }> {
  const url = pathToFileURL(path).href;
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('request', (request) => {
    if (request.url() !== url) problems.push(`request: ${request.url()}`);
  });
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.setDefaultTimeout(10_000);
  await page.goto(url);
  return { problems };
}

describe.skipIf(skipBrowserTests())('the report pages in Chromium, from file://', () => {
  let browser: Browser;
  let inspector: Server;
  let inspectorUrl: string;
  let runA: string;
  let runB: string;

  beforeAll(async () => {
    // A stand-in for the inspector: the links must lead there, whatever it answers.
    inspector = createServer((_, response) => {
      response.setHeader('content-type', 'text/html');
      response.end('<!doctype html><title>inspector</title><p>inspector</p>');
    });
    await new Promise<void>((resolve) => inspector.listen(0, '127.0.0.1', resolve));
    inspectorUrl = `http://127.0.0.1:${(inspector.address() as AddressInfo).port}/`;
    const root = tempFolder();
    const items = ids.map((itemId) => ({ itemId, output: `answer <b>${itemId}</b>` }));
    runA = writeFakeRun(join(root, 'run-a'), {
      runId: 'base',
      summary: true,
      items,
      scores: scores('A'),
    });
    runB = writeFakeRun(join(root, 'run-b'), {
      runId: 'next',
      summary: true,
      items,
      scores: scores('B'),
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => inspector?.close(resolve));
  });

  it('shows a run: ten bars per scorer, the worst items linked to the inspector, text as text', async () => {
    const path = await writeRunReport(runA, { inspectorUrl, resamples: 500 });
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const { problems } = await open(page, path);
    expect(await page.locator('svg.histogram').count()).toBe(2);
    for (const scorer of ['exact', 'judge'])
      expect(
        await page.locator(`section[data-scorer="${scorer}"] svg.histogram rect.bar`).count(),
      ).toBe(10);
    // exact: 10 zeros (q0–q9), 14 ones; the bars are drawn, tallest where most scores are.
    const exact = page.locator('section[data-scorer="exact"] svg.histogram rect.bar');
    expect(await exact.nth(0).getAttribute('data-count')).toBe('10');
    expect(await exact.nth(9).getAttribute('data-count')).toBe('14');
    const [low, high] = [await exact.nth(0).boundingBox(), await exact.nth(9).boundingBox()];
    expect(high!.height).toBeGreaterThan(low!.height);
    expect(low!.height).toBeGreaterThan(10);

    const worst = page.locator('section[data-scorer="exact"] table.worst tr[data-item]');
    expect(await worst.count()).toBe(10);
    const q7 = page.locator('section[data-scorer="exact"] tr[data-item="q7"]');
    expect(await q7.locator('td.reason').textContent()).toBe(HOSTILE);
    expect(await q7.locator('td.output').textContent()).toBe('answer <b>q7</b>');
    const link = q7.locator('a.thread');
    expect(await link.getAttribute('href')).toBe(inspectorThreadUrl(inspectorUrl, 'base/q7'));
    expect(await link.getAttribute('href')).toBe(`${inspectorUrl}#/thread/base%2Fq7`);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    expect(problems).toEqual([]);

    // The link opens the thread in the inspector.
    await Promise.all([page.waitForURL(`${inspectorUrl}#/thread/base%2Fq7`), link.click()]);
    expect(await page.locator('p').textContent()).toBe('inspector');
    await page.close();
  });

  it('shows a comparison: an interval per scorer, a bar per changed item, both threads linked', async () => {
    const path = await writeComparisonReport(runA, runB, { inspectorUrl, resamples: 500 });
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const { problems } = await open(page, path);
    expect(await page.locator('svg.forest g.interval').count()).toBe(2);
    expect(await page.locator('svg.forest line.zero').count()).toBe(1);
    // exact: q0–q9 up (0 → 1), q20 down: a real gain, its interval right of zero.
    const exact = page.locator('section.scorer[data-scorer="exact"]');
    expect(await exact.locator('svg.changes rect.bar').count()).toBe(11);
    expect(await exact.locator('svg.changes rect.bar.up').count()).toBe(10);
    expect(await exact.locator('svg.changes rect.bar.down').count()).toBe(1);
    // judge: every item moved by a tenth, or from 1.0 back to 0.0.
    const judge = page.locator('section.scorer[data-scorer="judge"]');
    expect(await judge.locator('svg.changes rect.bar').count()).toBe(24);
    const zero = await page.locator('svg.forest line.zero').boundingBox();
    const gain = await page.locator('svg.forest g.interval.better line.ci').first().boundingBox();
    expect(gain!.x).toBeGreaterThan(zero!.x);

    const row = exact.locator('table.changed tr[data-item="q20"]');
    expect(await row.locator('td.thread-a a').getAttribute('href')).toBe(
      `${inspectorUrl}#/thread/base%2Fq20`,
    );
    expect(await row.locator('td.thread-b a').getAttribute('href')).toBe(
      `${inspectorUrl}#/thread/next%2Fq20`,
    );
    expect(
      await exact.locator('table.changed tr[data-item="q7"] td.reason').first().textContent(),
    ).toBe(HOSTILE);
    expect(await page.locator('script').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
