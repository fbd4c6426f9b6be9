import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationSnapshot } from '@skein/conversation';
import { ConversationManager } from '@skein/conversation';
import type { SkeinEngine } from '@skein/core';
import { launchChromium, skipBrowserTests } from '@skein/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningInspector } from '../server/inspector-options.js';
import { serveInspector } from '../server/start-inspector.js';
import { buildPage } from '../test-support/browser.js';
import {
  createFixtureEngine,
  runFixtureThread,
  runGuardedThread,
  SCRIPT_MESSAGE,
  SCRIPT_NODE_ID,
} from '../test-support/fixture-thread.js';
import { tempStore } from '../test-support/temp-store.js';

// Every run saves the screenshot as a test artefact (ignored by git); the one the README shows
// is refreshed only when asked, so a test run leaves the working tree as it was.
const ARTEFACT = fileURLToPath(new URL('../../test-artifacts/thread-page.png', import.meta.url));
const README_SCREENSHOT = fileURLToPath(new URL('../../docs/thread-page.png', import.meta.url));

describe.skipIf(skipBrowserTests())('the thread page in Chromium', () => {
  const temp = tempStore();
  let engine: SkeinEngine;
  let inspector: RunningInspector;
  let browser: Browser;
  let page: Page;

  async function manager(threadId: string): Promise<ConversationManager> {
    const stored = await temp.store.load(threadId);
    return ConversationManager.restore(stored!.conversation as ConversationSnapshot);
  }

  async function open(threadId: string): Promise<void> {
    // A fresh document each time: only the hash would change otherwise, keeping the page's state.
    await page.goto('about:blank');
    await page.goto(`${inspector.url}#/thread/${threadId}`);
    await page.getByTestId('stored-count').waitFor();
  }

  beforeAll(async () => {
    browser = await launchChromium();
    await buildPage(join(temp.dir, 'page'));
    engine = createFixtureEngine(temp.store);
    await runFixtureThread(engine, 'trip-1');
    await runFixtureThread(engine, 'live-1');
    await engine.run('pay', { threadId: 'pay-1' });
    const loop = await engine.run('loop', { threadId: 'loop-1' });
    expect(loop.result.status).toBe('COMPLETED');
    const legs = await engine.run('legs', { threadId: 'legs-1' });
    expect(legs.result.status).toBe('COMPLETED');
    expect((await runGuardedThread(engine, 'stopped-1')).status).toBe('FAILED');
    inspector = await serveInspector(
      { store: temp.store, engine, allowResume: true },
      join(temp.dir, 'page'),
    );
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
    await inspector?.close();
    temp.dispose();
  });

  it('lists the threads', async () => {
    await page.goto(inspector.url);
    await expect.poll(() => page.locator('tr[data-thread]').count()).toBe(8);
    await page.getByText('trip-1').click();
    await page.getByTestId('stored-count').waitFor();
  });

  it('shows stored and visible counts per batch as the store has them', async () => {
    await open('trip-1');
    const conversation = await manager('trip-1');
    const batches = conversation.listBatches();
    expect(await page.getByTestId('stored-count').textContent()).toBe(
      String(conversation.getTotalMessageCount()),
    );
    expect(await page.getByTestId('visible-count').textContent()).toBe(
      String(batches.at(-1)!.visibleCount),
    );
    expect(await page.locator('li.message[data-visible="true"]').count()).toBe(
      batches.at(-1)!.visibleCount,
    );
    await page.locator('button[data-batch="0"]').click();
    expect(await page.getByTestId('visible-count').textContent()).toBe(
      String(batches[0]!.visibleCount),
    );
    expect(await page.locator('li.message[data-visible="true"]').count()).toBe(
      batches[0]!.visibleCount,
    );
    expect(await page.locator('[data-boundary="clear"]').count()).toBe(1);
    expect(await page.locator('li.message.tool-description').count()).toBe(1);
  });

  it('pairs tool calls with their results, the failed one in red', async () => {
    await open('trip-1');
    const ok = page.locator('[data-call="call_3_0"]');
    expect(await ok.locator('.arguments').textContent()).toBe('{\n  "city": "Lisbon"\n}');
    expect(await ok.locator('.result pre').textContent()).toBe('{"city":"Lisbon","sky":"sunny"}');
    const failed = page.locator('[data-call="call_3_1"]');
    expect(await failed.locator('.result').getAttribute('data-result-position')).toBe('5');
    expect(await failed.locator('.result pre.error').textContent()).toBe(
      'Error [TOOL_FAILED]: no route to Nowhere',
    );
    const color = await failed.locator('.result pre').evaluate((el) => getComputedStyle(el).color);
    expect(color).toBe('rgb(180, 35, 24)');
  });

  it('draws the workflow: one box per node, the path taken and the current node marked', async () => {
    await open('trip-1');
    const graph = page.locator('svg.workflow-graph');
    const nodes = ['start', 'plan', 'reset', 'summary', 'confirm', 'book', 'end'];
    expect(
      await graph.locator('g.node').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-node'))),
    ).toEqual(nodes);
    expect(
      await graph
        .locator('g.node.visited')
        .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-node'))),
    ).toEqual(['start', 'plan', 'reset', 'summary', 'confirm']);
    expect(await graph.locator('g.node.current').getAttribute('data-node')).toBe('confirm');
    expect(await graph.locator('g.edge.on-path').count()).toBe(4);
    expect(await graph.locator('g.node[data-node="plan"] text.node-type').textContent()).toBe(
      'LLM',
    );
    // Boxes come down the page in the order the workflow runs.
    const ys = await graph
      .locator('g.node rect')
      .evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().top));
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
  });

  it('draws a loop as a back edge and a node id holding <script> as text', async () => {
    await open('loop-1');
    const graph = page.locator('svg.workflow-graph');
    expect(await graph.locator('g.node').count()).toBe(4);
    const odd = graph.locator('g.node.visited').nth(1);
    expect(await odd.getAttribute('data-node')).toBe(SCRIPT_NODE_ID);
    expect(await odd.locator('title').textContent()).toBe(`${SCRIPT_NODE_ID} (VARIABLE)`);
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    const back = graph.locator('g.edge.back');
    expect(await back.count()).toBe(1);
    expect(await back.getAttribute('data-from')).toBe('again');
    expect(await back.locator('text').textContent()).toContain('n < 2');
    expect(await back.getAttribute('class')).toContain('on-path');
    expect(await graph.locator('g.node.visited').count()).toBe(4);
  });

  it('shows branches as a tree by branch path, each with its status and a link', async () => {
    await open('legs-1');
    const tree = page.locator('section.branch-tree');
    expect(await tree.locator('li[data-branch="each"] > code').textContent()).toBe('each');
    const leaves = tree.locator('li[data-branch="each"] li');
    expect(await leaves.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-branch')))).toEqual([
      'each[0]',
      'each[1]',
    ]);
    expect(await leaves.locator('.status').allTextContents()).toEqual(['COMPLETED', 'COMPLETED']);
    const first = (await leaves.first().locator('a').textContent())!;
    await leaves.first().locator('a').click();
    await expect.poll(() => page.locator('h1').textContent()).toContain(first);
    expect(await page.getByRole('link', { name: 'legs-1' }).count()).toBe(1);
  });

  it('says first which guardrail stopped a thread, where and why', async () => {
    await open('stopped-1');
    const trip = page.getByTestId('guardrail-trip');
    await trip.waitFor();
    expect(await trip.getAttribute('role')).toBe('alert');
    expect(await page.getByTestId('guardrail-name').textContent()).toBe('noSecrets');
    expect(await page.getByTestId('guardrail-stage').textContent()).toBe("on the model's answer");
    expect(await page.getByTestId('guardrail-reason').textContent()).toBe(
      'the answer gives the vault code away',
    );
    expect(await trip.textContent()).toContain('(node answer)');
    // Right under the heading, before the timeline and the graph.
    const first = await page.locator('section.thread > *:nth-child(3)').getAttribute('data-testid');
    expect(first).toBe('guardrail-trip');
    expect(await page.getByTestId('status').textContent()).toBe('FAILED');
  });

  it('renders a message holding <script> as text', async () => {
    await open('trip-1');
    const content = page.locator('li.message[data-position="8"] pre.content');
    expect(await content.textContent()).toBe(SCRIPT_MESSAGE);
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await page.screenshot({ path: ARTEFACT, fullPage: true });
    if (process.env.SKEIN_UPDATE_SCREENSHOT === '1')
      await page.screenshot({ path: README_SCREENSHOT, fullPage: true });
  });

  it('updates while the thread runs, without a reload', async () => {
    await open('live-1');
    expect(await page.getByTestId('status').textContent()).toBe('PAUSED');
    await page.evaluate(() => {
      (window as { __sameDocument?: boolean }).__sameDocument = true;
    });
    await engine.resume(await engine.loadThread('live-1'), 'yes');
    await expect.poll(() => page.getByTestId('status').textContent()).toBe('COMPLETED');
    const conversation = await manager('live-1');
    await expect
      .poll(() => page.getByTestId('stored-count').textContent())
      .toBe(String(conversation.getTotalMessageCount()));
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(
      true,
    );
  });

  it('shows what happened before its event stream was followed', async () => {
    await runFixtureThread(engine, 'late-1');
    // The page's first read comes back while its event stream is held: the run then ends
    // unseen, as it can on a busy machine, and only the stream's `ready` is left to tell.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const events = '**/api/threads/late-1/events';
    await page.route(events, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await open('late-1');
      expect(await page.getByTestId('status').textContent()).toBe('PAUSED');
      await engine.resume(await engine.loadThread('late-1'), 'yes');
      release();
      await expect.poll(() => page.getByTestId('status').textContent()).toBe('COMPLETED');
    } finally {
      release();
      await page.unroute(events);
    }
  });

  it('answers a paused thread from the page', async () => {
    await open('trip-1');
    await page.locator('input[name="answer"]').fill('yes please');
    await page.getByRole('button', { name: 'Answer' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toBe('COMPLETED');
    const stored = await temp.store.load('trip-1');
    expect(stored!.state.status).toBe('COMPLETED');
    expect(stored!.state.variables).toMatchObject({ answer: 'yes please' });
  });

  it('approves a tool call from the page', async () => {
    await open('pay-1');
    const pending = (await temp.store.load('pay-1'))!.state.pending;
    if (pending?.kind !== 'tool-approval') throw new Error('pay-1 should wait for an approval');
    expect(pending.awaiting).toHaveLength(1);
    await page.locator(`input[name="${pending.awaiting[0]}"]`).check();
    await page.getByRole('button', { name: 'Send decisions' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toBe('COMPLETED');
    const stored = await temp.store.load('pay-1');
    const results = stored!.conversation.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.content)).toEqual(['{"charged":120}']);
  });
});
