import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SkeinError } from '@skein/spec';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BrowserTestSetupError, launchChromium, skipBrowserTests } from './index.js';

// No Chromium is launched here: these are the two refusals, which need none (the browser suites
// of the inspector, the AI SDK package and the chat service launch it for real).
const dir = mkdtempSync(join(tmpdir(), 'skein-testkit-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.unstubAllEnvs();
});

async function refusal(): Promise<BrowserTestSetupError> {
  const error = await launchChromium().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!BrowserTestSetupError.isInstance(error)) throw new Error(`not refused: ${String(error)}`);
  return error;
}

describe('launchChromium', () => {
  it('names the missing binary and the fixes: the apt-get line, SKEIN_CHROMIUM, the switch', async () => {
    const missing = join(dir, 'no-chromium');
    vi.stubEnv('SKEIN_SKIP_BROWSER_TESTS', '');
    vi.stubEnv('SKEIN_CHROMIUM', missing);
    const error = await refusal();
    expect(error).toBeInstanceOf(SkeinError);
    expect(error.code).toBe('BROWSER_TEST_SETUP');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(`Chromium at ${missing}, which is missing`);
    expect(error.fix).toContain('apt-get install -y chromium');
    expect(error.fix).toContain('SKEIN_CHROMIUM');
    expect(error.fix).toContain('SKEIN_SKIP_BROWSER_TESTS=1');
  });

  it('takes a file that cannot be run for a missing one', async () => {
    const notRunnable = join(dir, 'chromium.txt');
    writeFileSync(notRunnable, 'not a browser');
    vi.stubEnv('SKEIN_SKIP_BROWSER_TESTS', '');
    vi.stubEnv('SKEIN_CHROMIUM', notRunnable);
    expect((await refusal()).message).toContain(`Chromium at ${notRunnable}, which is missing`);
  });

  it('refuses to launch when the browser tests are to be skipped: the suite must skip itself', async () => {
    vi.stubEnv('SKEIN_SKIP_BROWSER_TESTS', '1');
    const error = await refusal();
    expect(error.message).toContain('SKEIN_SKIP_BROWSER_TESTS=1 is set, yet a suite launched');
    expect(error.fix).toContain('describe.skipIf(skipBrowserTests())');
  });
});

describe('skipBrowserTests', () => {
  it('is true for SKEIN_SKIP_BROWSER_TESTS=1 only', () => {
    for (const [value, skip] of [
      ['1', true],
      ['', false],
      ['0', false],
      ['true', false],
    ] as const) {
      vi.stubEnv('SKEIN_SKIP_BROWSER_TESTS', value);
      expect(skipBrowserTests(), value).toBe(skip);
    }
  });
});
