import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (CI installs it), or `SKEIN_CHROMIUM` for another binary. */
const CHROMIUM = process.env.SKEIN_CHROMIUM ?? '/usr/bin/chromium';

/** Starts headless Chromium, or fails saying how to get it (the browser test is never skipped). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `The chat UI's browser test needs Chromium at ${CHROMIUM}, which is missing. Install it ` +
        '(Debian/Ubuntu: `apt-get install -y chromium`) or point SKEIN_CHROMIUM at a Chromium binary.',
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
