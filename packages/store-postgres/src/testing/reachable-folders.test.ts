import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestPostgresSetupError } from './index.js';
import { blockedAt, cachedFolder, sharedFolder } from './reachable-folders.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-folders-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('blockedAt', () => {
  it('names the first folder on the way that lets no other user through', async () => {
    const inner = join(dir, 'a', 'b');
    await mkdir(inner, { recursive: true, mode: 0o755 });
    // mkdtemp makes its folder 0700, as `mktemp -d` does.
    expect(await blockedAt(inner)).toBe(dir);
    await chmod(dir, 0o711);
    expect(await blockedAt(inner)).toBeUndefined();
  });
});

describe('cachedFolder', () => {
  it('fills a folder once, for test files asking at the same time, and opens it to every user', async () => {
    await chmod(dir, 0o755);
    const target = join(dir, 'binaries');
    let fills = 0;
    const fill = async (into: string) => {
      fills++;
      await mkdir(join(into, 'bin'));
      await writeFile(join(into, 'bin', 'tool'), '#!/bin/sh\n', { mode: 0o700 });
      await writeFile(join(into, 'data'), 'x', { mode: 0o600 });
    };
    const made = await Promise.all([cachedFolder(target, fill), cachedFolder(target, fill)]);
    expect(made).toEqual([target, target]);
    expect(fills).toBeGreaterThanOrEqual(1);
    // Nothing half-made is left behind by the one that lost.
    expect(await readdir(dir)).toEqual(['binaries']);
    expect((await stat(target)).mode & 0o777).toBe(0o755);
    expect((await stat(join(target, 'bin'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(target, 'bin', 'tool'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(target, 'data'))).mode & 0o777).toBe(0o644);
    // Once there, it is used as it is.
    expect(await cachedFolder(target, () => Promise.reject(new Error('not again')))).toBe(target);
  });

  it('leaves nothing when filling fails', async () => {
    const target = join(dir, 'broken');
    await expect(
      cachedFolder(target, () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a folder others can write to, naming it and how to get rid of it', async () => {
    const planted = join(dir, 'shared');
    await mkdir(planted);
    await chmod(planted, 0o777);
    for (const use of [() => cachedFolder(planted, async () => {}), () => sharedFolder(planted)]) {
      const error = await use().catch((e: unknown) => e);
      expect(TestPostgresSetupError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'TEST_POSTGRES_SETUP',
        path: planted,
        fix: `Remove it (rm -rf ${planted}) and run the tests again.`,
      });
    }
  });
});

describe('sharedFolder', () => {
  it('makes the folder every user can enter, whatever the umask', async () => {
    const made = await sharedFolder(join(dir, 'cache'));
    expect((await stat(made)).mode & 0o777).toBe(0o755);
    expect(await sharedFolder(made)).toBe(made);
  });
});
