import { join } from 'node:path';
import type { SkeinEngine } from '@skein/core';
import { launchChromium, skipBrowserTests } from '@skein/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningInspector } from '../server/inspector-options.js';
import { serveInspector } from '../server/start-inspector.js';
import { buildPage } from '../test-support/browser.js';
import { createFixtureEngine, runFixtureThread } from '../test-support/fixture-thread.js';
import { tempStore } from '../test-support/temp-store.js';

describe.skipIf(skipBrowserTests())('the history section in Chromium', () => {
  const temp = tempStore();
  const pageDir = join(temp.dir, 'page');
  let engine: SkeinEngine;
  let forking: RunningInspector;
  let readOnly: RunningInspector;
  let browser: Browser;
  let page: Page;

  async function open(inspector: RunningInspector, threadId: string): Promise<void> {
    await page.goto('about:blank');
    await page.goto(`${inspector.url}#/thread/${encodeURIComponent(threadId)}`);
    await page.getByTestId('history').waitFor();
  }

  beforeAll(async () => {
    browser = await launchChromium();
    await buildPage(pageDir);
    engine = createFixtureEngine(temp.store);
    await runFixtureThread(engine, 'trip-1');
    forking = await serveInspector({ store: temp.store, engine, allowFork: true }, pageDir);
    readOnly = await serveInspector({ store: temp.store }, pageDir);
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
    await forking?.close();
    await readOnly?.close();
    temp.dispose();
  });

  it('lists the checkpoints with step, node, status and what changed', async () => {
    await open(forking, 'trip-1');
    const entries = await engine.history('trip-1');
    const items = page.locator('section.history li');
    expect(
      await items.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-checkpoint'))),
    ).toEqual(entries.map((e) => e.checkpointId));
    expect(await items.locator('code').allTextContents()).toEqual(entries.map((e) => e.nodeId));
    expect(await items.locator('.status').allTextContents()).toEqual(entries.map((e) => e.status));
    expect(await items.locator('.summary').allTextContents()).toEqual(
      entries.map((e) => e.summary),
    );
    expect(await items.getByRole('button', { name: 'Fork from here' }).count()).toBe(
      entries.length,
    );
  });

  it('forks from an entry and links the new thread, which shows where it came from', async () => {
    await open(forking, 'trip-1');
    const paused = (await engine.history('trip-1')).at(-1)!;
    const entry = page.locator(`section.history li[data-checkpoint="${paused.checkpointId}"]`);
    await entry.getByRole('button', { name: 'Fork from here' }).click();
    const link = entry.locator('.fork-link a');
    await link.waitFor();
    const forkId = (await link.textContent())!;
    expect(forkId).not.toBe('trip-1');
    await link.click();
    await expect.poll(() => page.locator('h1').textContent()).toContain(forkId);
    expect(await page.getByTestId('forked-from').textContent()).toBe(
      `Forked from trip-1 at ${paused.checkpointId}`,
    );
    await page.getByTestId('history').waitFor();
    expect(await page.locator('section.history li .status').allTextContents()).toEqual(['PAUSED']);
    expect((await temp.store.load(forkId))!.state).toMatchObject({
      status: 'PAUSED',
      forkedFrom: { threadId: 'trip-1', checkpointId: paused.checkpointId },
    });
  });

  it('shows the history without fork buttons when the inspector cannot fork', async () => {
    await open(readOnly, 'trip-1');
    const items = page.locator('section.history li');
    await expect.poll(() => items.count()).toBe((await engine.history('trip-1')).length);
    expect(await page.getByRole('button', { name: 'Fork from here' }).count()).toBe(0);
  });
});
