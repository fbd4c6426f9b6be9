import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine, runFixtureThread } from './test-support/fixture-thread.js';
import { tempStore } from './test-support/temp-store.js';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');

function startCli(args: string[]): Promise<{ url: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /on (http:\/\/\S+)/.exec(output)?.[1];
      if (url)
        resolve({
          url,
          stop: () =>
            new Promise((done) => {
              child.once('exit', done);
              child.kill('SIGTERM');
            }),
        });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

describe('skein-inspector', () => {
  const temp = tempStore();

  beforeAll(async () => {
    await runFixtureThread(createFixtureEngine(temp.store), 'cli-1');
  });
  afterAll(() => temp.dispose());

  it('serves a SQLite file read-only on 127.0.0.1 and a chosen port', async () => {
    const cli = await startCli(['--db', temp.filename, '--port', '0']);
    try {
      expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const list = (await (await fetch(new URL('/api/threads', cli.url))).json()) as {
        threads: { threadId: string; status: string }[];
      };
      expect(list.threads.map((t) => `${t.threadId} ${t.status}`)).toEqual(['cli-1 PAUSED']);
      const info = await (await fetch(new URL('/api/info', cli.url))).json();
      expect(info).toEqual({ live: 'poll', allowResume: false, allowFork: false });
      const resume = await fetch(new URL('/api/threads/cli-1/resume', cli.url), {
        method: 'POST',
        body: '{}',
      });
      expect(resume.status).toBe(403);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });

  it('says what is wrong with its arguments, and creates no file for a wrong --db', async () => {
    await expect(startCli(['--port', '1'])).rejects.toThrow(/exited with 2: --db is required/);
    const missing = `${temp.filename}.typo`;
    await expect(startCli(['--db', missing, '--port', '0'])).rejects.toThrow(
      /exited with 1: skein-inspector: No store at .*typo: the file does not exist/,
    );
    expect(existsSync(missing)).toBe(false);
  });
});

describe('skein-inspector --db naming a file that is not a Skein store', () => {
  const temp = tempStore();
  afterAll(() => temp.dispose());

  it('refuses it with NOT_A_STORE, exits 1, and leaves it byte for byte as it was', async () => {
    await runFixtureThread(createFixtureEngine(temp.store), 'kept');
    const foreign = join(temp.dir, 'foreign.db');
    // A SQLite database of another application: Skein's file with its application id cleared.
    copyFileSync(temp.filename, foreign);
    const bytes = readFileSync(foreign);
    bytes.fill(0, 68, 72);
    writeFileSync(foreign, bytes);
    const files: Record<string, Buffer> = {
      'empty.db': Buffer.alloc(0),
      'notes.txt': Buffer.from('not a database\n'),
      'short.db': Buffer.from('SQLite format 3\0'),
      'foreign.db': bytes,
    };
    for (const [name, content] of Object.entries(files)) {
      const path = join(temp.dir, name);
      writeFileSync(path, content);
      const before = readdirSync(temp.dir).sort();
      await expect(startCli(['--db', path, '--port', '0'])).rejects.toThrow(
        new RegExp(
          `exited with 1: skein-inspector: .*${name.replace('.', '\\.')} is not a Skein store`,
        ),
      );
      expect([name, readFileSync(path).equals(content)]).toEqual([name, true]);
      expect(readdirSync(temp.dir).sort()).toEqual(before);
    }
  });
});
