#!/usr/bin/env node
// A local npm registry (Verdaccio) on 127.0.0.1 holding the @skein packages as `pnpm release`
// would publish them, so they install by name before (and without) any public release. The
// consumer check (scripts/check-consumer.mjs) rehearses the release with it; `pnpm registry:local`
// starts one for people who build from source and keeps it running:
//
//   pnpm registry:local [--port 4873]      (it builds the packages first)
//
// The registry has no uplink for @skein/*: an @skein name that was not published here is a 404,
// never a request to the public registry. Every other name is proxied to the npm registry this
// machine is configured with.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runServer } from 'verdaccio';
import { release } from './release.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Starts Verdaccio on 127.0.0.1 (`port` 0: any free port) with its config file and storage in
 * `dir`. Resolves with its URL and a `close()`.
 */
export async function startLocalRegistry(dir, { port = 0, env = process.env } = {}) {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(config, verdaccioConfig(npmRegistry(env)));
  const server = await runServer(config);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        // npm keeps connections alive; without this, close waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

/**
 * Publishes the packages of the workspace at `root` to `registry` through `release()` (the code
 * path of `pnpm release`), from a copy under `dir`: the versions and CHANGELOGs `changeset version`
 * writes land in the copy, never in the repository. Needs the packages built. Resolves with the
 * released versions.
 */
export async function publishToLocalRegistry(registry, dir, { env = process.env } = {}) {
  stageWorkspace(root, join(dir, 'workspace'));
  // npm publishes only with a login: a user of this registry, its token in an npmrc of its own.
  const npmrc = join(dir, 'npmrc');
  writeFileSync(
    npmrc,
    `${registry.replace(/^https?:/, '')}:_authToken=${await addUser(registry)}\n`,
  );
  return release({
    cwd: join(dir, 'workspace'),
    registry,
    build: false,
    env: { ...env, npm_config_userconfig: npmrc },
    quiet: true,
  });
}

async function addUser(registry) {
  const name = 'skein-release';
  const response = await fetch(`${registry}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: randomUUID() }),
  });
  const body = await response.json();
  if (!response.ok || !body.token)
    throw new Error(
      `the local registry refused a user: ${response.status} ${JSON.stringify(body)}`,
    );
  return body.token;
}

/**
 * Copies what `changeset version` and `pnpm publish` read: the root manifest, the workspace file,
 * the changesets, and every package with its build. A package's node_modules is copied as the
 * links it is: pnpm reads a sibling's version through node_modules/@skein/<name>, which points to
 * the sibling's copy. The root node_modules is linked, not copied.
 */
export function stageWorkspace(from, to) {
  mkdirSync(to, { recursive: true });
  for (const file of ['package.json', 'pnpm-workspace.yaml', '.npmrc'])
    if (existsSync(join(from, file))) cpSync(join(from, file), join(to, file));
  cpSync(join(from, '.changeset'), join(to, '.changeset'), { recursive: true });
  for (const folder of readdirSync(join(from, 'packages')))
    cpSync(join(from, 'packages', folder), join(to, 'packages', folder), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) => !/\/(\.turbo|\.readme-[^/]*|test-artifacts|coverage)$/.test(src),
    });
  symlinkSync(join(from, 'node_modules'), join(to, 'node_modules'));
}

// The registry npm uses on this machine (a mirror, say), for the names that are not ours.
function npmRegistry(env) {
  const result = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', env });
  const url = result.stdout?.trim();
  return result.status === 0 && /^https?:\/\//.test(url) ? url : 'https://registry.npmjs.org/';
}

function verdaccioConfig(uplink) {
  return `# Written by scripts/local-registry.mjs.
storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
uplinks:
  npm:
    url: ${uplink}
    # One metadata fetch per package while a check runs, not one per install.
    maxage: 30m
    timeout: 60s
packages:
  # Ours: published here by the release flow, and never proxied: a missing @skein package is
  # a 404, as it would be after a broken release.
  '@skein/*':
    access: $all
    publish: $authenticated
  '**':
    access: $all
    proxy: npm
max_body_size: 100mb
log: { type: stdout, format: pretty, level: error }
`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--port');
  const port = at > 0 ? Number(process.argv[at + 1]) : 4873;
  const dir = mkdtempSync(join(tmpdir(), 'skein-registry-'));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
  );
  const registry = await startLocalRegistry(join(dir, 'registry'), { port, env });
  const stop = async () => {
    await registry.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const released = await publishToLocalRegistry(registry.url, join(dir, 'release'), { env });
    const names = Object.keys(released);
    console.log(`✓ ${registry.url}: ${names.length} packages at ${released[names[0]]}`);
    console.log(`In your app, take @skein/* from it (the rest still comes from your registry):

  npm config set @skein:registry ${registry.url} --location=project

then run the install line of the README you follow. Ctrl-C stops the registry (and forgets it).`);
  } catch (error) {
    console.error(`✗ ${error.message}`);
    await registry.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  }
}
