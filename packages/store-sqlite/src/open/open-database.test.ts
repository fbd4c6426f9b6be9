import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pragma } from '../driver/connection.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from '../schema/migrations.js';
import { openRaw, openStore, withRaw } from '../test-support/driver.js';
import { loopEngine } from '../test-support/loop-workflow.js';
import {
  expectRefused,
  randomBytes,
  raw,
  refusal,
  skeinDatabase,
} from '../test-support/refusals.js';

const root = mkdtempSync(join(tmpdir(), 'skein-sqlite-open-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
/** A fresh directory per case, so side files can be listed. */
function freshDir(): string {
  const dir = join(root, `case-${++counter}`);
  mkdirSync(dir);
  return dir;
}

describe('opening a checkpoint database', () => {
  it('creates a missing file with the current schema, in WAL mode, leaving no temporary file', async () => {
    const dir = freshDir();
    const filename = join(dir, 'new.db');
    const store = openStore({ filename });
    expect(store.filename).toBe(filename);
    expect(await store.listThreads()).toEqual([]);
    store.close();
    expect(readdirSync(dir)).toEqual(['new.db']);
    withRaw(
      filename,
      (db) => {
        expect(pragma(db, 'user_version')).toBe(SCHEMA_VERSION);
        expect(pragma(db, 'application_id')).toBe(APPLICATION_ID);
        expect(pragma(db, 'journal_mode')).toBe('wal');
      },
      { readonly: true },
    );
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('adopts an empty (0-byte) file as a new database', async () => {
    const filename = join(freshDir(), 'empty.db');
    writeFileSync(filename, '');
    const store = openStore({ filename });
    await loopEngine(store, { iterations: 2 }).run('loop', { threadId: 'e' });
    store.close();
    const reopened = openStore({ filename });
    expect((await reopened.listThreads()).map((t) => t.threadId)).toEqual(['e']);
    reopened.close();
  });

  it('opens a file it made before, with its threads', async () => {
    const filename = await skeinDatabase(freshDir());
    const store = openStore({ filename });
    expect(await store.listThreads()).toMatchObject([{ threadId: 't', status: 'COMPLETED' }]);
    store.close();
  });

  it('refuses random bytes as STORE_CORRUPT without creating anything beside the file', () => {
    const filename = join(freshDir(), 'random.db');
    writeFileSync(filename, randomBytes(16_384, 7));
    const error = expectRefused(filename, 'STORE_CORRUPT');
    expect(error.message).toMatch(/SQLite header/);
  });

  it('refuses a file shorter than a SQLite header, and a text file', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'short.db'), 'SQLite format 3\0');
    expect(expectRefused(join(dir, 'short.db'), 'STORE_CORRUPT').message).toMatch(/16 bytes/);
    writeFileSync(join(dir, 'notes.db'), JSON.stringify({ notes: 'x'.repeat(5000) }));
    expectRefused(join(dir, 'notes.db'), 'STORE_CORRUPT');
  });

  it('refuses a truncated database, cut on or off a page boundary', async () => {
    const dir = freshDir();
    const whole = readFileSync(await skeinDatabase(dir));
    expect(whole.length).toBeGreaterThan(8 * 4096);
    for (const [name, length] of [
      ['pages.db', 4 * 4096],
      ['ragged.db', 4 * 4096 + 1000],
    ] as const) {
      writeFileSync(join(dir, name), whole.subarray(0, length));
      expect(expectRefused(join(dir, name), 'STORE_CORRUPT').message).toMatch(/truncated/);
    }
  });

  it('refuses a database with a damaged page (quick_check), and reads nothing wrong when the check is off', async () => {
    const filename = await skeinDatabase(freshDir());
    const bytes = readFileSync(filename);
    // Page 5 lies inside the tables; its content becomes noise, the header stays intact.
    randomBytes(4096, 11).copy(bytes, 4 * 4096);
    writeFileSync(filename, bytes);
    expectRefused(filename, 'STORE_CORRUPT');
    // Opened without the check, the damage surfaces as STORE_CORRUPT when it is read.
    const store = openStore({ filename, verifyOnOpen: false });
    const outcome = await Promise.allSettled([
      store.load('t'),
      store.list('t'),
      store.listThreads(),
    ]);
    store.close();
    const failures = outcome.filter((o) => o.status === 'rejected');
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures)
      expect((failure as PromiseRejectedResult).reason).toMatchObject({ code: 'STORE_CORRUPT' });
  });

  it("refuses another application's SQLite database as STORE_FOREIGN, without writing to it", () => {
    const filename = join(freshDir(), 'app.db');
    raw(filename, (db) => {
      db.exec('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)');
      db.prepare<[string]>('INSERT INTO users (name) VALUES (?)').run('Ada');
    });
    expect(expectRefused(filename, 'STORE_FOREIGN').message).toMatch(/application id/);
  });

  it('refuses a SQLite database with no tables, and one with a different application id', () => {
    const dir = freshDir();
    const empty = join(dir, 'empty-sqlite.db');
    raw(empty, (db) => {
      db.exec('CREATE TABLE t (x); DROP TABLE t;');
    });
    expectRefused(empty, 'STORE_FOREIGN');
    const other = join(dir, 'other.db');
    raw(other, (db) => {
      db.exec(`PRAGMA application_id = ${0x5f4d534e}`);
      db.exec('CREATE TABLE threads (id INTEGER PRIMARY KEY)');
    });
    expect(expectRefused(other, 'STORE_FOREIGN').message).toMatch(/0x5f4d534e/);
  });

  it('refuses a foreign database in WAL mode, leaving its file as it was', () => {
    const filename = join(freshDir(), 'wal-app.db');
    raw(filename, (db) => {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('CREATE TABLE events (at TEXT)');
    });
    expectRefused(filename, 'STORE_FOREIGN');
  });

  it('refuses Skein tables of the wrong shape as STORE_FOREIGN, naming what differs', () => {
    const filename = join(freshDir(), 'shape.db');
    raw(filename, (db) => {
      db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
      db.exec('PRAGMA user_version = 1');
      db.exec(
        'CREATE TABLE threads (id INTEGER PRIMARY KEY, thread_id TEXT); CREATE TABLE checkpoints (id INTEGER PRIMARY KEY)',
      );
    });
    const error = expectRefused(filename, 'STORE_FOREIGN');
    expect(error.message).toMatch(
      /table threads is "CREATE TABLE threads \(id INTEGER PRIMARY KEY, thread_id TEXT\)"/,
    );
    expect(error.message).toMatch(/table messages is missing/);
    expect(error.details.problems).toEqual(
      expect.arrayContaining(['index checkpoints_by_thread is missing']),
    );
  });

  it('refuses a Skein database with a table added by someone else', async () => {
    const filename = await skeinDatabase(freshDir());
    raw(filename, (db) => db.exec('CREATE TABLE notes (text TEXT)'));
    const error = expectRefused(filename, 'STORE_FOREIGN');
    expect(error.message).toMatch(/unexpected table notes/);
  });

  it('refuses a database from a newer version of the package as STORE_TOO_NEW, never downgrading it', async () => {
    const filename = await skeinDatabase(freshDir());
    raw(filename, (db) => db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 6}`));
    const error = expectRefused(filename, 'STORE_TOO_NEW');
    expect(error.details).toMatchObject({ found: SCHEMA_VERSION + 6, supported: SCHEMA_VERSION });
    withRaw(filename, (db) => expect(pragma(db, 'user_version')).toBe(SCHEMA_VERSION + 6), {
      readonly: true,
    });
  });

  it('sees a newer version that is still only in the WAL of another connection', async () => {
    const filename = await skeinDatabase(freshDir());
    const writer = openRaw(filename);
    writer.exec('PRAGMA wal_autocheckpoint = 0');
    writer.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    try {
      expect(refusal(filename).code).toBe('STORE_TOO_NEW');
    } finally {
      writer.close();
    }
  });

  it('reports a path it cannot use as STORE_IO naming it', () => {
    const dir = freshDir();
    const missingDir = join(dir, 'no-such-dir', 'threads.db');
    const error = refusal(missingDir);
    expect(error.code).toBe('STORE_IO');
    expect(error.message).toContain(missingDir);
    expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
    const folder = join(dir, 'folder.db');
    mkdirSync(folder);
    expect(refusal(folder)).toMatchObject({ code: 'STORE_IO', details: { filename: folder } });
  });

  it('refuses bad options as INVALID_ARGUMENT', () => {
    expect(() => openStore({ filename: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'filename' }),
    );
    expect(() => openStore({ filename: ':memory:', busyTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'busyTimeoutMs' }),
    );
    expect(() =>
      openStore({
        filename: ':memory:',
        synchronous: 'off' as 'full',
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'synchronous' }));
  });
});
