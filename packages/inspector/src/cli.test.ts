import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
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
      expect(info).toEqual({ live: 'poll', allowResume: false });
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
