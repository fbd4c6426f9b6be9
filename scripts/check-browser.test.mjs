// Tests of check-browser.mjs: `node --test scripts/` (part of the root `test`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { browserCheck, browserSuites, workspaceFiles } from './check-browser.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const script = fileURLToPath(new URL('./check-browser.mjs', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'check-browser-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** A workspace with these (empty) files. */
function workspace(name, files) {
  const root = join(temp, name);
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  return root;
}

const root = workspace('two-suites', [
  'packages/inspector/src/browser/page.browser.test.ts',
  'packages/inspector/src/server/api.test.ts',
  'packages/inspector/node_modules/x/y.browser.test.ts',
  'apps/chat/src/ui.browser.test.ts',
]);
const none = () => false;
const all = () => true;

describe('before the run', () => {
  it('stops with one line naming the apt-get line and the switch when Chromium is missing', () => {
    const { ok, line } = browserCheck({ env: {}, root, exists: none });
    assert.equal(ok, false);
    assert.doesNotMatch(line, /\n/);
    assert.match(line, /Chromium at \/usr\/bin\/chromium, which is missing/);
    assert.match(line, /`apt-get install -y chromium`/);
    assert.match(line, /SKEIN_SKIP_BROWSER_TESTS=1/);
  });

  it('looks where SKEIN_CHROMIUM says, as the suites do', () => {
    const asked = [];
    const exists = (path) => asked.push(path) > 0 && path === '/opt/chromium';
    assert.equal(browserCheck({ env: { SKEIN_CHROMIUM: '/opt/chromium' }, root, exists }).ok, true);
    const missing = browserCheck({ env: { SKEIN_CHROMIUM: '/nowhere/chrome' }, root, exists });
    assert.match(missing.line, /Chromium at \/nowhere\/chrome, which is missing/);
    assert.deepEqual(asked, ['/opt/chromium', '/nowhere/chrome']);
  });

  it('says nothing when Chromium is there', () => {
    assert.deepEqual(browserCheck({ env: {}, root, exists: all }), { ok: true });
  });

  it('goes on without Chromium when the switch is set, saying the suites will be skipped', () => {
    for (const exists of [none, all]) {
      const { ok, line } = browserCheck({ env: { SKEIN_SKIP_BROWSER_TESTS: '1' }, root, exists });
      assert.equal(ok, true);
      assert.equal(line, 'SKEIN_SKIP_BROWSER_TESTS=1: the 2 browser suites will be skipped');
    }
  });

  it('takes only 1 for the switch', () => {
    for (const value of ['', '0', 'true', 'yes'])
      assert.equal(
        browserCheck({ env: { SKEIN_SKIP_BROWSER_TESTS: value }, root, exists: none }).ok,
        false,
      );
  });
});

describe('after the run (--summary)', () => {
  it('lists the skipped suites on one line', () => {
    const env = { SKEIN_SKIP_BROWSER_TESTS: '1' };
    assert.deepEqual(browserCheck({ env, root, summary: true, exists: none }), {
      ok: true,
      line:
        'skipped browser tests (SKEIN_SKIP_BROWSER_TESTS=1): apps/chat/src/ui.browser.test.ts, ' +
        'packages/inspector/src/browser/page.browser.test.ts',
    });
  });

  it('says nothing when nothing was skipped', () => {
    assert.deepEqual(browserCheck({ env: {}, root, summary: true, exists: none }), { ok: true });
  });
});

describe('the script', () => {
  const run = (env, args = []) =>
    spawnSync(process.execPath, [script, ...args], {
      encoding: 'utf8',
      env: { ...process.env, SKEIN_SKIP_BROWSER_TESTS: '', ...env },
    });

  it('exits 1 with the one line on stderr when the browser is missing', () => {
    const result = run({ SKEIN_CHROMIUM: join(temp, 'no-chromium') });
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trimEnd().split('\n').length, 1);
    assert.match(result.stderr, /no-chromium, which is missing: run `apt-get install -y chromium`/);
  });

  it('exits 0 with the switch, and its summary names the repository’s browser suites', () => {
    const env = { SKEIN_CHROMIUM: join(temp, 'no-chromium'), SKEIN_SKIP_BROWSER_TESTS: '1' };
    assert.equal(run(env).status, 0);
    const summary = run(env, ['--summary']);
    assert.equal(summary.status, 0);
    assert.equal(
      summary.stdout,
      `skipped browser tests (SKEIN_SKIP_BROWSER_TESTS=1): ${browserSuites(repo).join(', ')}\n`,
    );
  });
});

describe('the repository', () => {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));

  it('checks first, before anything builds, and sums up last', () => {
    assert.match(manifest.scripts.test, /^node scripts\/check-browser\.mjs && /);
    assert.match(manifest.scripts.test, / && node scripts\/check-browser\.mjs --summary$/);
  });

  it('passes both variables to the suites through turbo (its strict env mode drops others)', () => {
    const turbo = JSON.parse(readFileSync(join(repo, 'turbo.json'), 'utf8'));
    for (const name of ['SKEIN_CHROMIUM', 'SKEIN_SKIP_BROWSER_TESTS'])
      assert.ok(turbo.tasks.test.env?.includes(name), `turbo.json tasks.test.env lacks ${name}`);
  });

  it('names every suite that launches Chromium *.browser.test.ts, and each honours the switch', () => {
    const launching = workspaceFiles(repo, (name) => name.endsWith('.ts')).filter(
      (file) =>
        !file.startsWith('packages/testkit/') &&
        readFileSync(join(repo, file), 'utf8').includes("'@skein/testkit/browser'"),
    );
    // Every such file is a suite the summary lists, and it skips itself with the switch (the
    // testkit's launchChromium refuses to run then, so one that does not would fail loudly).
    assert.deepEqual(launching.sort(), browserSuites(repo));
    for (const file of launching)
      assert.match(
        readFileSync(join(repo, file), 'utf8'),
        /describe\.skipIf\(skipBrowserTests\(\)\)\(/,
        file,
      );
  });
});
