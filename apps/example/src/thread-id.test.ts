import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ThreadContext, WorkflowDefinition } from '@skein/core';
import type { ToolNameCodec } from '@skein/openai';
import { afterAll, describe, expect, it } from 'vitest';
import { writeOutputs } from './output.js';
import { run } from './test-support/cli-process.js';
import { isPlainThreadId } from './thread-id.js';

const work = mkdtempSync(join(tmpdir(), 'skein-example-ids-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('thread ids', () => {
  it('are letters, digits, _ and -, starting with a letter or digit, at most 128 long', () => {
    for (const id of [
      'a',
      'trip-42',
      'A_b-9',
      '0',
      'x'.repeat(128),
      'f3c1c2f0-7b4e-4d4f-9a57-1f0b8e2f5c11',
    ])
      expect(isPlainThreadId(id), id).toBe(true);
    for (const id of [
      '',
      '../../x',
      '..',
      '.hidden',
      'a/b',
      'a\\b',
      '-rf',
      '_a',
      'a b',
      'a.b',
      'C:x',
      'x'.repeat(129),
      'a\nb',
      'a\0b',
      'é',
    ])
      expect(isPlainThreadId(id), JSON.stringify(id)).toBe(false);
  });

  it('that are not plain ids are refused before anything is written: one line, exit code 2', async () => {
    const db = join(work, 'ids.db');
    const out = join(work, 'out', 'nested');
    for (const args of [
      ['--thread-id', '../../x'],
      ['--thread-id', '/tmp/skein-escape'],
      ['--thread-id', ''],
      ['--resume', '../x'],
      ['--resume', 'a/b', '--answer', 'yes'],
    ]) {
      const result = await run(['--db', db, '--out', out, ...args]);
      const label = args.join(' ');
      expect(result.code, label).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines, label).toHaveLength(1);
      expect(lines[0], label).toMatch(
        /is invalid\. A thread id is 1 to 128 letters, digits, '_' or '-', starting with a letter or digit/,
      );
      expect(result.stdout, label).toBe('');
    }
    expect(existsSync(db)).toBe(false);
    expect(readdirSync(work)).toEqual([]);
  });

  it('that are not plain ids never name an output folder, whatever path they came by', () => {
    const out = join(work, 'guarded');
    const thread = { threadId: '../escaped' } as ThreadContext;
    expect(() =>
      writeOutputs(out, thread, [], {} as ToolNameCodec, {} as WorkflowDefinition),
    ).toThrow(/Thread id "\.\.\/escaped" is not a plain id; no files were written/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(work, 'escaped'))).toBe(false);
  });
});
