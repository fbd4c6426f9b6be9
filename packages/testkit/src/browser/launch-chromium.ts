import { accessSync, constants, statSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { BrowserTestSetupError } from './browser-test-setup-error.js';

// The repository's test command (scripts/check-browser.mjs) reads the same two variables: keep
// their names and meaning in step.

/** Where the browser tests find Chromium: `SKEIN_CHROMIUM`, else Debian's package. */
function chromiumPath(): string {
  return process.env.SKEIN_CHROMIUM || '/usr/bin/chromium';
}

/**
 * True when `SKEIN_SKIP_BROWSER_TESTS=1`: the one way to skip the browser suites, for a machine
 * without Chromium (never in CI). A suite reads it as `describe.skipIf(skipBrowserTests())`.
 */
export function skipBrowserTests(): boolean {
  return process.env.SKEIN_SKIP_BROWSER_TESTS === '1';
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Starts headless Chromium from `chromiumPath()` (never a downloaded browser: a machine with no
 * network can run it), or throws a `BrowserTestSetupError` saying how to get one. It also throws
 * when `skipBrowserTests()` is true: a suite that launches anyway does not honour the switch.
 */
export async function launchChromium(): Promise<Browser> {
  if (skipBrowserTests())
    throw new BrowserTestSetupError(
      'SKEIN_SKIP_BROWSER_TESTS=1 is set, yet a suite launched Chromium',
      'Skip the suite with describe.skipIf(skipBrowserTests())',
    );
  const path = chromiumPath();
  if (!isExecutableFile(path))
    throw new BrowserTestSetupError(
      `The browser tests need Chromium at ${path}, which is missing`,
      'Install it with `apt-get install -y chromium` (Debian or Ubuntu, as root or with sudo), ' +
        'point SKEIN_CHROMIUM at a Chromium binary, or set SKEIN_SKIP_BROWSER_TESTS=1 to skip ' +
        'the browser tests',
    );
  // Loaded here: playwright-core is an optional peer, needed only by those who launch.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: path,
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
