import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres, type TestPostgres } from '@skein/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from './test-support/cli-process.js';

// The single-process app with its checkpoints on PostgreSQL instead of the SQLite file.

let pg: TestPostgres;
let dir: string;
beforeAll(async () => {
  pg = await startTestPostgres();
  dir = mkdtempSync(join(tmpdir(), 'skein-example-store-'));
}, 60_000);
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('--store <postgres url>', () => {
  it('runs, lists and resumes a thread whose checkpoints are in PostgreSQL, never touching --db', async () => {
    const db = join(dir, 'never.db');
    const base = ['--store', pg.connectionString, '--db', db, '--out', join(dir, 'out')];
    const paused = await run([...base, '--thread-id', 'pg-trip']);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toContain('Resume with: skein-example --resume pg-trip');
    // The password never reaches the terminal.
    expect(paused.stdout).not.toContain(new URL(pg.connectionString).password || '\u0000');

    const listed = await run(['--list', '--store', pg.connectionString]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/pg-trip\s+PAUSED/);

    const resumed = await run([...base, '--resume', 'pg-trip', '--answer', 'yes']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const store = new PostgresCheckpointStore({ connectionString: pg.connectionString });
    try {
      expect((await store.load('pg-trip'))?.state.status).toBe('COMPLETED');
      // Branch and child threads of the MAP and SUBWORKFLOW are stored beside it.
      expect((await store.listThreads()).some((t) => t.threadId.startsWith('pg-trip/'))).toBe(true);
    } finally {
      await store.close();
    }
    expect(existsSync(db)).toBe(false);
  }, 300_000);

  it('refuses a --store that is not a PostgreSQL URL, and a missing thread, in one line', async () => {
    const wrong = await run(['--store', 'mysql://x@127.0.0.1/db', '--list']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toContain('--store takes a PostgreSQL URL');

    const missing = await run([
      '--store',
      pg.connectionString,
      '--resume',
      'no-such-thread',
      '--answer',
      'yes',
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No stored thread with id "no-such-thread"');
    expect(missing.stderr).not.toContain('at ');
  }, 300_000);
});
