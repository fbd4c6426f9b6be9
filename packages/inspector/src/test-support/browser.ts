import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';

/** Where the browser tests find Chromium: `SKEIN_CHROMIUM`, else Debian's package. */
const CHROMIUM = process.env.SKEIN_CHROMIUM ?? '/usr/bin/chromium';

/** `SKEIN_SKIP_BROWSER_TESTS=1` skips the browser tests (and says so); nothing else does. */
export const SKIP_BROWSER_TESTS = process.env.SKEIN_SKIP_BROWSER_TESTS === '1';

if (SKIP_BROWSER_TESTS)
  console.log(
    'SKEIN_SKIP_BROWSER_TESTS=1: skipping the inspector browser tests (they need Chromium)',
  );

/** Starts headless Chromium, or fails saying how to get it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `The inspector's browser tests need Chromium at ${CHROMIUM}, which is missing. Install it ` +
        '(Debian/Ubuntu: `apt-get install -y chromium`), point SKEIN_CHROMIUM at another Chromium ' +
        'binary, or set SKEIN_SKIP_BROWSER_TESTS=1 to skip these tests.',
    );
  // --no-sandbox: CI and this machine run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/**
 * Builds the page from the current sources into `outDir` (a folder of the test's own: the
 * package's build may clean dist/ while the tests run).
 */
export async function buildPage(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
    build: { outDir, emptyOutDir: true },
  });
}
