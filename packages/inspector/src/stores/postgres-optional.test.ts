import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createFixtureEngine, runFixtureThread } from '../test-support/fixture-thread.js';
import { tempStore } from '../test-support/temp-store.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

// A module hook that makes @skein/store-postgres unresolvable, as in an app that did not install it.
const WITHOUT_POSTGRES = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  if (specifier === '@skein/store-postgres' || specifier === 'pg') {
    const error = new Error('Cannot find package ' + specifier);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}\`));
`)}`;

describe('PostgreSQL is an optional peer', () => {
  it('is declared so: not a dependency, an optional peer', () => {
    const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(manifest.dependencies['@skein/store-postgres']).toBeUndefined();
    expect(manifest.peerDependenciesMeta['@skein/store-postgres']).toEqual({ optional: true });
  });

  it('opens SQLite without it, and names the package for a PostgreSQL URL', async () => {
    const temp = tempStore();
    try {
      await runFixtureThread(createFixtureEngine(temp.store), 'a');
      const script = `
        const { openStore } = await import('@skein/inspector');
        const opened = await openStore(${JSON.stringify(temp.filename)});
        const threads = (await opened.store.listThreads()).map((t) => t.threadId);
        await opened.close();
        const error = await openStore('postgres://u@127.0.0.1:1/db').catch((e) => e);
        console.log(JSON.stringify({ threads, code: error.code, packageName: error.packageName, message: error.message }));
      `;
      const { stdout } = await run(
        process.execPath,
        ['--import', WITHOUT_POSTGRES, '--input-type=module', '-e', script],
        { cwd: root },
      );
      expect(JSON.parse(stdout)).toEqual({
        threads: ['a'],
        code: 'STORE_PACKAGE_MISSING',
        packageName: '@skein/store-postgres',
        message: expect.stringContaining('install it beside the inspector'),
      });
    } finally {
      temp.dispose();
    }
  });
});
