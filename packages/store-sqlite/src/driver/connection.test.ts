import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DRIVER, openRaw, testDriver, withRaw } from '../test-support/driver.js';
import { pragma } from './connection.js';

// What the store relies on from a connection, checked on the driver under test: where
// node:sqlite and better-sqlite3 differ (rows with a null prototype, integers beyond 2^53 that
// throw, no pragma() helper, errors as numbers), the connection gives the same on both.

const dir = mkdtempSync(join(tmpdir(), 'skein-connection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => join(dir, `c-${++counter}.db`);

function sqliteCodeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return testDriver().sqliteCode(error);
  }
  throw new Error('no error');
}

describe(`a ${DRIVER} connection`, () => {
  it('names its driver and says whether it is open; closing twice is quiet', () => {
    const db = openRaw(':memory:');
    expect(db.driver).toBe(DRIVER);
    expect(db.isOpen).toBe(true);
    db.close();
    db.close();
    expect(db.isOpen).toBe(false);
  });

  it('gives rows as plain objects, and a column statement the first column', () => {
    withRaw(':memory:', (db) => {
      db.exec("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, NULL)");
      const rows = db.prepare<[], { a: number; b: string | null }>('SELECT a, b FROM t').all();
      expect(rows).toEqual([
        { a: 1, b: 'x' },
        { a: 2, b: null },
      ]);
      for (const row of rows) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(db.column<[number], string>('SELECT b FROM t WHERE a = ?').get(1)).toBe('x');
      expect(db.column('SELECT a FROM t ORDER BY a').all()).toEqual([1, 2]);
      expect(db.prepare('SELECT a FROM t WHERE a = 3').get()).toBeUndefined();
    });
  });

  it('reads back integers beyond 2^53 as numbers, and floats and -0 as SQLite keeps them', () => {
    withRaw(':memory:', (db) => {
      db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER NOT NULL)');
      const insert = db.prepare<[string, number]>('INSERT INTO t VALUES (?, ?)');
      const read = db.prepare<[string], { n: number; type: string }>(
        'SELECT n, typeof(n) AS type FROM t WHERE k = ?',
      );
      // Stored as a 64-bit integer; node:sqlite alone would throw ERR_OUT_OF_RANGE reading it.
      for (const [k, n, type] of [
        ['big', 2 ** 60, 'integer'],
        ['beyond', 2 ** 53 + 2, 'integer'],
        ['negative', -(2 ** 62), 'integer'],
        ['huge', 1e300, 'real'],
        ['fraction', 1.5, 'real'],
      ] as const) {
        insert.run(k, n);
        expect(read.get(k)).toEqual({ n, type });
      }
      insert.run('minus-zero', -0);
      expect(read.get('minus-zero')).toEqual({ n: 0, type: 'integer' });
      expect(db.column<[], number>('SELECT max(n) FROM t').get()).toBe(1e300);
    });
  });

  it('reports changes and the inserted row id as numbers', () => {
    withRaw(':memory:', (db) => {
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      const insert = db.prepare<[string]>('INSERT INTO t (v) VALUES (?)');
      expect(Number(insert.run('a').lastInsertRowid)).toBe(1);
      insert.run('b');
      const { changes } = db.prepare('UPDATE t SET v = v').run();
      expect(changes).toBe(2);
      expect(typeof changes).toBe('number');
    });
  });

  it('reads and sets pragmas through statements (node:sqlite has no pragma())', () => {
    const filename = freshFile();
    withRaw(filename, (db) => {
      expect(pragma(db, 'journal_mode = WAL')).toBe('wal');
      db.exec('PRAGMA user_version = 7');
      expect(pragma(db, 'user_version')).toBe(7);
    });
    withRaw(filename, (db) => expect(pragma(db, 'journal_mode')).toBe('wal'), { readonly: true });
  });

  it("names SQLite's refusals by their result code, as the store's error translation reads them", () => {
    const filename = freshFile();
    withRaw(filename, (db) => {
      db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
      db.exec("INSERT INTO t VALUES ('a')");
      expect(sqliteCodeOf(() => db.exec("INSERT INTO t VALUES ('a')"))).toMatch(
        /^SQLITE_CONSTRAINT/,
      );
      expect(sqliteCodeOf(() => db.exec('SELECT * FROM nowhere'))).toBe('SQLITE_ERROR');
    });
    withRaw(
      filename,
      (db) =>
        expect(sqliteCodeOf(() => db.exec("INSERT INTO t VALUES ('b')"))).toBe('SQLITE_READONLY'),
      { readonly: true },
    );
    const holder = openRaw(filename);
    const waiter = openRaw(filename);
    try {
      waiter.exec('PRAGMA busy_timeout = 0');
      holder.exec('BEGIN IMMEDIATE');
      expect(sqliteCodeOf(() => waiter.exec('BEGIN IMMEDIATE'))).toBe('SQLITE_BUSY');
      holder.exec('ROLLBACK');
    } finally {
      holder.close();
      waiter.close();
    }
    expect(testDriver().sqliteCode(new Error('not from SQLite'))).toBeUndefined();
  });

  it('refuses a missing file when it must exist, and creates nothing', () => {
    const filename = join(dir, 'missing.db');
    expect(() => openRaw(filename, { mustExist: true })).toThrow();
    expect(() => openRaw(filename, { readonly: true })).toThrow();
    expect(() => openRaw(filename, { mustExist: true })).toThrow();
  });
});
