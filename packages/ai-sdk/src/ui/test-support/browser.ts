import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';

/** Where the browser tests find Chromium: `SKEIN_CHROMIUM`, else Debian's package. */
const CHROMIUM = process.env.SKEIN_CHROMIUM ?? '/usr/bin/chromium';

/** `SKEIN_SKIP_BROWSER_TESTS=1` skips the browser tests (and says so); nothing else does. */
export const SKIP_BROWSER_TESTS = process.env.SKEIN_SKIP_BROWSER_TESTS === '1';

if (SKIP_BROWSER_TESTS)
  console.log('SKEIN_SKIP_BROWSER_TESTS=1: skipping the ai-sdk browser test (it needs Chromium)');

/** Starts headless Chromium, or fails saying how to get it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `The ai-sdk browser test needs Chromium at ${CHROMIUM}, which is missing. Install it ` +
        '(Debian/Ubuntu: `apt-get install -y chromium`), point SKEIN_CHROMIUM at another Chromium ' +
        'binary, or set SKEIN_SKIP_BROWSER_TESTS=1 to skip it.',
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start. The rest keep it
    // from reaching for Google's hosts on a machine with no network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** The chat page bundled with esbuild (React, @ai-sdk/react and ai included), as one script. */
export async function buildChatPage(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../browser/chat-page.jsx', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export const CHAT_PAGE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Skein chat</title></head>' +
  '<body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';
