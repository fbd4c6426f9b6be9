#!/usr/bin/env node
// `pnpm release --registry <url>`: publishes the @skein packages. It applies the pending changesets
// (`changeset version`: new versions and CHANGELOGs), builds, then publishes every package whose
// version the registry does not have yet (`changeset publish`, which runs `pnpm publish` in each
// package: pnpm turns the `workspace:` ranges into the released versions) and tags them in git.
// The registry is always named, so nothing reaches the public registry by accident. The consumer
// check rehearses this same function against a local registry, in a copy of the workspace
// (scripts/local-registry.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The staged copy links the repository's node_modules, so this one CLI serves both.
const changeset = join(root, 'node_modules', '@changesets', 'cli', 'bin.js');

/**
 * Versions, optionally builds, and publishes the workspace at `cwd` to `registry`. Resolves with
 * the released version of every published package; throws when a step fails.
 */
export async function release({ cwd, registry, build = true, env = process.env, quiet = false }) {
  if (spawnSync('pnpm', ['--version'], { env }).status !== 0)
    throw new Error('pnpm is not on PATH: run this through pnpm (npx -y pnpm@10.34.9 release …)');
  const before = publishableVersions(cwd);
  const bumps = pendingBumps(join(cwd, '.changeset'));
  await run(process.execPath, [changeset, 'version'], { cwd, env, quiet });
  const after = publishableVersions(cwd);
  const problem = versionProblem(before, after, bumps);
  if (problem) throw new Error(problem);
  if (build)
    await run('pnpm', ['turbo', 'run', 'build', '--filter=./packages/*'], { cwd, env, quiet });
  // changesets passes the registry on to `npm info` and `pnpm publish` through this variable.
  await run(process.execPath, [changeset, 'publish'], {
    cwd,
    env: { ...env, npm_config_registry: registry },
    quiet,
  });
  return after;
}

/** name → version of every package under packages/ that is not private. */
export function publishableVersions(cwd) {
  const dir = join(cwd, 'packages');
  return Object.fromEntries(
    readdirSync(dir)
      .filter((folder) => existsSync(join(dir, folder, 'package.json')))
      .map((folder) => JSON.parse(readFileSync(join(dir, folder, 'package.json'), 'utf8')))
      .filter((manifest) => !manifest.private)
      .map((manifest) => [manifest.name, manifest.version]),
  );
}

/** The bump each package gets from the pending changesets: name → 'major' | 'minor' | 'patch'. */
export function pendingBumps(changesetDir) {
  const order = ['patch', 'minor', 'major'];
  const bumps = {};
  for (const file of readdirSync(changesetDir).filter(
    (f) => f.endsWith('.md') && f !== 'README.md',
  )) {
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(changesetDir, file), 'utf8'));
    for (const line of front?.[1].split('\n') ?? []) {
      const m = /^\s*["']?([^"':\s]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
      if (m && order.indexOf(m[2]) > order.indexOf(bumps[m[1]] ?? 'none')) bumps[m[1]] = m[2];
    }
  }
  return bumps;
}

/**
 * What is wrong with the versions `changeset version` produced, or undefined. The packages are one
 * `fixed` group, so they must end at one version; and no package may reach a new major unless a
 * changeset asks for one. changesets gives a package a major bump when a sibling it takes as a peer
 * leaves the peer's range, and below 1.0 every minor leaves `^0.x.y`: that is why the packages
 * name @skein peers as `workspace:^0` (with `onlyUpdatePeerDependentsWhenOutOfRange`).
 */
export function versionProblem(before, after, bumps) {
  const versions = [...new Set(Object.values(after))];
  if (versions.length > 1)
    return `changeset version left the fixed group at several versions: ${JSON.stringify(after)}`;
  const askedMajor = Object.values(bumps).includes('major');
  const crossed = Object.keys(after).filter(
    (name) => before[name] && major(after[name]) > major(before[name]),
  );
  if (crossed.length && !askedMajor)
    return `changeset version made ${crossed.map((n) => `${n} ${after[n]} (was ${before[n]})`).join(', ')} although no changeset asks for a major bump: an @skein peer range must be workspace:^0 while the packages are below 1.0`;
  return undefined;
}

function major(version) {
  return Number(version.split('.')[0]);
}

// Runs a command; its output goes to the terminal, or when `quiet` into the error if it fails.
function run(command, args, { cwd, env, quiet }) {
  return new Promise((resolve, reject) => {
    if (!quiet)
      console.log(`$ ${[command === process.execPath ? 'node' : command, ...args].join(' ')}`);
    const child = spawn(command, args, { cwd, env, stdio: quiet ? 'pipe' : 'inherit' });
    let output = '';
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${output.trim()}`));
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--registry');
  const registry = at > 0 ? process.argv[at + 1] : undefined;
  if (!registry?.match(/^https?:\/\//)) {
    console.error(
      'Usage: pnpm release --registry <url>   (https://registry.npmjs.org/ to publish for real)',
    );
    process.exit(2);
  }
  try {
    const released = await release({ cwd: root, registry });
    console.log(
      `✓ released ${Object.keys(released).length} packages at ${Object.values(released)[0]} to ${registry}`,
    );
    console.log('Now commit the versions and CHANGELOGs and push the tags: git push --follow-tags');
  } catch (error) {
    console.error(`✗ ${error.message}`);
    process.exit(1);
  }
}
