// Tests of release.mjs: `node --test scripts/` (part of the root `test`).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pendingBumps, publishableVersions, versionProblem } from './release.mjs';

const temp = mkdtempSync(join(tmpdir(), 'release-test-'));
after(() => rmSync(temp, { recursive: true, force: true }));

function folder(name, files) {
  const dir = join(temp, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe('pendingBumps', () => {
  it('takes the highest bump each package gets, whatever the quotes', () => {
    const dir = folder('changesets', {
      'README.md': '# not a changeset\n',
      'config.json': '{}',
      'a.md': '---\n\'@skein/core\': patch\n"@skein/spec": minor\n---\n\nText: major words.\n',
      'b.md': '---\n@skein/core: minor\n---\n\nMore.\n',
    });
    assert.deepEqual(pendingBumps(dir), { '@skein/core': 'minor', '@skein/spec': 'minor' });
  });

  it('finds nothing in a folder without changesets', () => {
    assert.deepEqual(pendingBumps(folder('empty', { 'README.md': '' })), {});
  });
});

describe('versionProblem', () => {
  const before = { '@skein/core': '0.0.0', '@skein/spec': '0.0.0' };

  it('accepts the fixed group at one new minor', () => {
    const after = { '@skein/core': '0.1.0', '@skein/spec': '0.1.0' };
    assert.equal(versionProblem(before, after, { '@skein/core': 'minor' }), undefined);
  });

  it('refuses a major nobody asked for, naming the package and the peer-range cause', () => {
    const after = { '@skein/core': '1.0.0', '@skein/spec': '1.0.0' };
    const problem = versionProblem(before, after, { '@skein/core': 'minor' });
    assert.match(problem, /@skein\/core 1\.0\.0 \(was 0\.0\.0\)/);
    assert.match(problem, /workspace:\^0/);
  });

  it('accepts a major a changeset asks for', () => {
    const after = { '@skein/core': '1.0.0', '@skein/spec': '1.0.0' };
    assert.equal(versionProblem(before, after, { '@skein/spec': 'major' }), undefined);
  });

  it('refuses a fixed group left at several versions', () => {
    const after = { '@skein/core': '0.1.0', '@skein/spec': '0.0.1' };
    assert.match(versionProblem(before, after, {}), /several versions/);
  });
});

describe('publishableVersions', () => {
  it('lists the packages under packages/ that are not private', () => {
    const root = folder('workspace', {
      'packages/core/package.json': '{ "name": "@skein/core", "version": "0.1.0" }',
      'packages/app/package.json': '{ "name": "@skein/app", "version": "0.0.0", "private": true }',
      'packages/notes/README.md': 'no manifest',
    });
    assert.deepEqual(publishableVersions(root), { '@skein/core': '0.1.0' });
  });
});
