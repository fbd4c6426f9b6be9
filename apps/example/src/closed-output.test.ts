import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { run, start } from './test-support/cli-process.js';

// `skein-example | head -1`: the reader takes one line and closes the pipe while the run goes on.

const work = mkdtempSync(join(tmpdir(), 'skein-example-closed-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  firstLine: string;
  stderr: string;
}

/** Reads the child's stdout up to its first line, then closes it (and stderr too, if asked). */
function readFirstLineThenClose(child: ChildProcess, closeStderr: boolean): Promise<Ended> {
  return new Promise((resolve) => {
    let firstLine = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      if (firstLine.includes('\n')) return;
      firstLine += chunk.toString();
      if (!firstLine.includes('\n')) return;
      firstLine = firstLine.slice(0, firstLine.indexOf('\n'));
      child.stdout!.destroy();
      if (closeStderr) child.stderr!.destroy();
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code, signal) => resolve({ code, signal, firstLine, stderr }));
  });
}

async function storedStatus(db: string, threadId: string): Promise<string | undefined> {
  const store = new SqliteCheckpointStore({ filename: db });
  try {
    return (await store.load(threadId))?.state.status;
  } finally {
    store.close();
  }
}

describe('skein-example with its output closed by the reader', () => {
  it('stops quietly with exit code 141, leaves the thread CANCELLED, and --resume finishes it', async () => {
    const db = join(work, 'piped.db');
    const out = join(work, 'out-piped');
    const child = start([
      '--db',
      db,
      '--out',
      out,
      '--answer',
      'yes',
      '--thread-id',
      'piped',
      '--slow',
      '40',
    ]);
    const ended = await readFirstLineThenClose(child, false);
    expect(ended.firstLine).toContain('Skein travel assistant');
    expect(ended.stderr).toBe('');
    expect(ended.signal).toBeNull();
    expect(ended.code).toBe(141);
    expect(await storedStatus(db, 'piped')).toBe('CANCELLED');
    expect(existsSync(join(out, 'piped', 'transcript.json'))).toBe(true);

    const resumed = await run(['--db', db, '--out', out, '--resume', 'piped', '--answer', 'yes']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('confirmed for Ada');
    expect(await storedStatus(db, 'piped')).toBe('COMPLETED');
  });

  it('stops the same way when stderr is closed too (2>&1 | head -1)', async () => {
    const db = join(work, 'both.db');
    const child = start([
      '--db',
      db,
      '--out',
      join(work, 'out-both'),
      '--answer',
      'yes',
      '--thread-id',
      'both',
      '--slow',
      '40',
    ]);
    const ended = await readFirstLineThenClose(child, true);
    expect(ended.signal).toBeNull();
    expect(ended.code).toBe(141);
    expect(await storedStatus(db, 'both')).toBe('CANCELLED');
  });

  it('stops a StableToolBench run the same way', async () => {
    const child = start(['--toolbench', '--out', join(work, 'out-toolbench')]);
    const ended = await readFirstLineThenClose(child, false);
    expect(ended.stderr).toBe('');
    expect(ended.code).toBe(141);
  });
});
