import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, skipBrowserTests } from '@skein/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningInspector } from '../server/inspector-options.js';
import { serveInspector } from '../server/start-inspector.js';
import { buildPage } from '../test-support/browser.js';
import {
  CSV,
  CSV_NAME,
  mediaMessages,
  PNG,
  REMOTE_IMAGE,
  SCRIPT_FILENAME,
  SCRIPT_MEDIA_TYPE,
  saveThread,
  withAttachments,
} from '../test-support/media-thread.js';
import { tempStore } from '../test-support/temp-store.js';
import { digestOf } from '../test-support/tiny-media.js';

// A look at the parts as drawn, saved on every run as a test artefact (ignored by git).
const ARTEFACT = fileURLToPath(new URL('../../test-artifacts/media-parts.png', import.meta.url));

describe.skipIf(skipBrowserTests())('media parts on the thread page in Chromium', () => {
  const temp = tempStore();
  const pageDir = mkdtempSync(join(tmpdir(), 'skein-inspector-page-'));
  let inspector: RunningInspector;
  let origin: string;
  let browser: Browser;
  let page: Page;
  /** Every request the page made, and those that were for another origin (refused). */
  const requested: string[] = [];
  const elsewhere: string[] = [];

  const part = (position: number, index: number) =>
    page.locator(`li.message[data-position="${position}"] [data-part="${index}"]`);

  /** Opens a thread's page afresh, with the request records emptied. */
  async function open(threadId: string): Promise<void> {
    await page.goto('about:blank');
    requested.length = 0;
    elsewhere.length = 0;
    await page.goto(`${inspector.url}#/thread/${threadId}`);
    await page.getByTestId('stored-count').waitFor();
  }

  /** Waits until every thumbnail of the page has loaded or failed: the page is done asking. */
  async function settled(): Promise<void> {
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>('img.thumbnail')].every(
            (img) => img.complete,
          ),
        ),
      )
      .toBe(true);
  }

  beforeAll(async () => {
    browser = await launchChromium();
    await buildPage(pageDir);
    await saveThread(temp.store, 'media-1', mediaMessages());
    // A ref to bytes the store never held (an app's own): the thumbnail's request answers 404.
    const neverHeld = digestOf(new TextEncoder().encode('bytes no store here holds'));
    await saveThread(temp.store, 'media-2', [
      {
        role: 'user',
        content: [{ type: 'image', mediaType: 'image/png', ref: { digest: neverHeld, size: 9 } }],
      },
    ]);
    inspector = await serveInspector(
      { store: withAttachments(temp.store, { 'media-1': [PNG] }) },
      pageDir,
    );
    origin = new URL(inspector.url).origin;
    page = await browser.newPage({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
    page.on('request', (request) => requested.push(request.url()));
    // Nothing may leave for another origin; were it tried, it is recorded and goes nowhere.
    await page.route(
      (url) => url.origin !== origin,
      (route) => {
        elsewhere.push(route.request().url());
        return route.abort();
      },
    );
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
    await inspector?.close();
    temp.dispose();
    rmSync(pageDir, { recursive: true, force: true });
  });

  it('shows image thumbnails loaded from the inspector: inline, by attachment, in a tool message', async () => {
    await open('media-1');
    const thumbnails = [part(0, 1), part(1, 2), part(2, 1)].map((p) => p.locator('img.thumbnail'));
    for (const img of thumbnails) {
      await expect
        .poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth))
        .toBeGreaterThan(0);
      const src = await img.evaluate((e: HTMLImageElement) => e.src);
      expect(new URL(src).origin).toBe(origin);
      expect(new URL(src).pathname).toMatch(/^\/api\/threads\/media-1\/messages\/\d+\/parts\/\d+$/);
    }
    expect(await part(0, 1).textContent()).toContain(`image/png · ${PNG.length} bytes`);
    expect(await part(1, 2).textContent()).toContain('1×1');
    await page.locator('.conversation').screenshot({ path: ARTEFACT });
    // An SVG is offered as a download, never drawn.
    expect(await part(1, 0).locator('img').count()).toBe(0);
    expect(await part(1, 0).locator('a[download]').getAttribute('download')).toBe('image-1-0.svg');
  });

  it('plays audio from the inspector’s own origin', async () => {
    await open('media-1');
    const audio = part(0, 2).locator('audio');
    expect(await audio.getAttribute('controls')).not.toBeNull();
    const src = await audio.evaluate((e: HTMLAudioElement) => e.currentSrc || e.src);
    expect(new URL(src).origin).toBe(origin);
    // The player read the clip's header: the bytes came back as audio.
    await expect
      .poll(() => audio.evaluate((e: HTMLAudioElement) => e.readyState))
      .toBeGreaterThanOrEqual(1);
    expect(await part(0, 2).textContent()).toContain('audio/wav');
  });

  it('downloads a file under its name, from the inspector', async () => {
    await open('media-1');
    const link = part(0, 3).locator('a[download]');
    expect(await link.getAttribute('download')).toBe(CSV_NAME);
    expect(await link.textContent()).toBe(CSV_NAME);
    expect(new URL(await link.evaluate((e: HTMLAnchorElement) => e.href)).origin).toBe(origin);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    // The exact name came through filename* (the ASCII stand-in would be `plan _final_ _t_.csv`);
    // Chromium itself then replaces the quotes, which some file systems cannot hold.
    expect(download.suggestedFilename()).toBe(CSV_NAME.replaceAll('"', '_'));
    const saved = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of saved) chunks.push(chunk as Buffer);
    expect(new Uint8Array(Buffer.concat(chunks))).toEqual(CSV);
  });

  it('shows markup in a filename or media type as text, running nothing', async () => {
    await open('media-1');
    const hostile = part(3, 0);
    expect(await hostile.locator('a[download]').textContent()).toBe(SCRIPT_FILENAME);
    expect(await hostile.locator('a[download]').getAttribute('download')).toBe(SCRIPT_FILENAME);
    expect(await hostile.locator('.part-facts').textContent()).toContain(SCRIPT_MEDIA_TYPE);
    expect(await page.locator('.parts script, .parts img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  });

  it('shows a part by https URL as a link it never loads: no request leaves for it', async () => {
    await open('media-1');
    const address = part(1, 1);
    const link = address.locator('a');
    expect(await link.textContent()).toBe(REMOTE_IMAGE);
    expect(await link.getAttribute('href')).toBe(REMOTE_IMAGE);
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await address.locator('img, audio').count()).toBe(0);
    expect(await address.textContent()).toContain('not loaded');
    await settled();
    expect(requested.filter((url) => url.includes('media.example.test'))).toEqual([]);
    expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(await page.evaluate(() => (window as { __violations?: string[] }).__violations)).toEqual(
      [],
    );
  });

  it('says an attachment the store does not give is not available', async () => {
    await open('media-2');
    await expect.poll(() => part(0, 0).textContent()).toContain('not available');
    expect(await part(0, 0).locator('img').count()).toBe(0);
  });
});
