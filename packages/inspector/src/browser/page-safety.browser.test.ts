import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, skipBrowserTests } from '@skein/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage } from '../test-support/browser.js';
import { startOtherSite } from '../test-support/other-site.js';
import {
  type ResumableInspector,
  startResumableInspector,
} from '../test-support/resumable-inspector.js';

describe.skipIf(skipBrowserTests())(
  'the page and its server in Chromium, against other sites',
  () => {
    let subject: ResumableInspector;
    let url: string;
    let other: Awaited<ReturnType<typeof startOtherSite>>;
    let browser: Browser;
    let page: Page;
    const pageDir = mkdtempSync(join(tmpdir(), 'skein-inspector-page-'));

    beforeAll(async () => {
      browser = await launchChromium();
      await buildPage(pageDir);
      subject = await startResumableInspector({ pageDir });
      url = subject.inspector.url;
      await subject.pausedPayment('pay-1');
      await subject.pausedPayment('pay-2');
      other = await startOtherSite({
        '/frame': `<!doctype html><iframe id="victim" src="${url}#/thread/pay-1"></iframe>`,
        '/form': `<!doctype html>
        <form method="post" enctype="text/plain" action="${url}api/threads/pay-2/resume">
          <input type="hidden" name='{"input":true,"x":"' value='"}'>
          <button type="submit">Win a prize</button>
        </form>`,
      });
      page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as { __violations?: string[] }).__violations = seen;
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
    });

    afterAll(async () => {
      await browser?.close();
      await other?.close();
      await subject?.dispose();
      rmSync(pageDir, { recursive: true, force: true });
    });

    it('runs under a strict Content-Security-Policy without a violation, answering a thread', async () => {
      const response = await page.goto(`${url}#/thread/pay-1`);
      const policy = response!.headers()['content-security-policy'] ?? '';
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("script-src 'self'");
      await page.getByTestId('stored-count').waitFor();
      const pending = (await subject.store.load('pay-1'))!.state.pending;
      if (pending?.kind !== 'tool-approval') throw new Error('pay-1 should wait for an approval');
      await page.locator(`input[name="${pending.awaiting[0]}"]`).check();
      await page.getByRole('button', { name: 'Send decisions' }).click();
      // The status comes back over the event stream and a reload of the thread: fetch, EventSource
      // and the chart all run under the policy.
      await expect.poll(() => page.getByTestId('status').textContent()).toBe('COMPLETED');
      expect(subject.charges()).toBe(1);
      expect(
        await page.evaluate(() => (window as { __violations?: string[] }).__violations),
      ).toEqual([]);
    });

    it('cannot be shown in a frame of another site', async () => {
      await page.goto(`${other.url}frame`);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      expect(frame.url()).not.toBe(`${url}#/thread/pay-1`);
      expect(await frame.locator('#app').count()).toBe(0);
    });

    it('ignores a JS-free cross-site form posting an approval as text/plain', async () => {
      await page.goto(`${other.url}form`);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/resume')),
        page.getByRole('button', { name: 'Win a prize' }).click(),
      ]);
      expect(answer.status()).toBe(403);
      expect((await subject.store.load('pay-2'))!.state.status).toBe('PAUSED');
      expect(subject.charges()).toBe(1);
    });

    it('says "not found" for a malformed or unknown link instead of a blank page', async () => {
      for (const hash of [
        '#/thread/%E0%A4%A',
        '#/thread/',
        '#/nowhere',
        '#/thread/no-such-thread',
      ]) {
        await page.goto('about:blank');
        await page.goto(`${url}${hash}`);
        const message = page.getByTestId('not-found');
        await message.waitFor();
        expect([hash, await message.textContent()]).toEqual([
          hash,
          expect.stringMatching(/not found|bad link/i),
        ]);
        expect(await page.getByRole('link', { name: 'Skein inspector' }).count()).toBe(1);
      }
      await page.getByRole('link', { name: 'Skein inspector' }).click();
      await expect.poll(() => page.locator('tr[data-thread]').count()).toBe(2);
    });
  },
);
