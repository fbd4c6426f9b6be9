#!/usr/bin/env node
// The first and last step of the root `test` script. The browser suites (*.browser.test.ts)
// drive the machine's own Chromium (browser downloads are impossible here), so without one the
// test command would build and test for many minutes and only then fail: this stops it within a
// second, with one line saying what to do. SKEIN_SKIP_BROWSER_TESTS=1 is the one exception to
// "no skipped tests", for machines without Chromium (never in CI): then the suites skip
// themselves, and `--summary` (the last step) lists what was skipped.
// The suites read the same two variables through `@skein/testkit/browser`; keep them in step.
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const APT_LINE = 'apt-get install -y chromium';

/** Where the suites look for Chromium: `SKEIN_CHROMIUM`, else Debian's package. */
export const chromiumPath = (env) => env.SKEIN_CHROMIUM || '/usr/bin/chromium';
export const skipping = (env) => env.SKEIN_SKIP_BROWSER_TESTS === '1';

export function isExecutableFile(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Files under packages/ and apps/ (not node_modules, dist or dot folders) whose name passes. */
export function workspaceFiles(root, test) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.'))
        continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (test(entry.name)) found.push(relative(root, path).split(sep).join('/'));
    }
  };
  for (const group of ['packages', 'apps']) walk(join(root, group));
  return found.sort();
}

/** The browser suites: every `*.browser.test.ts` of the workspace. */
export const browserSuites = (root) =>
  workspaceFiles(root, (name) => name.endsWith('.browser.test.ts'));

/**
 * What the step prints and whether the test command goes on. Before the run: nothing when
 * Chromium is there, a note when skipping, and one line with the fix (and a stop) when Chromium
 * is missing. After the run (`summary`): the suites skipped, if any were.
 */
export function browserCheck({ env, root, summary = false, exists = isExecutableFile }) {
  if (skipping(env)) {
    const suites = browserSuites(root);
    return {
      ok: true,
      line: summary
        ? `skipped browser tests (SKEIN_SKIP_BROWSER_TESTS=1): ${suites.join(', ')}`
        : `SKEIN_SKIP_BROWSER_TESTS=1: the ${suites.length} browser suites will be skipped`,
    };
  }
  if (summary || exists(chromiumPath(env))) return { ok: true };
  return {
    ok: false,
    line:
      `✗ The browser tests need Chromium at ${chromiumPath(env)}, which is missing: ` +
      `run \`${APT_LINE}\` (Debian's chromium; as root or with sudo), ` +
      'or skip them with SKEIN_SKIP_BROWSER_TESTS=1 (never in CI).',
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { ok, line } = browserCheck({
    env: process.env,
    root,
    summary: process.argv.includes('--summary'),
  });
  if (line) (ok ? console.log : console.error)(line);
  if (!ok) process.exit(1);
}
