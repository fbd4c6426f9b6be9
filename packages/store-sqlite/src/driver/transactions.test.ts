import { describe, expect, it } from 'vitest';
import { DRIVER, withRaw } from '../test-support/driver.js';
import type { SqliteConnection } from './connection.js';
import { Transactions } from './transactions.js';

function rows(db: SqliteConnection): string[] {
  return db.column<[], string>('SELECT v FROM t ORDER BY rowid').all();
}

function withTable(work: (db: SqliteConnection, tx: Transactions) => void): void {
  withRaw(':memory:', (db) => {
    db.exec('CREATE TABLE t (v TEXT NOT NULL UNIQUE)');
    work(db, new Transactions(db));
  });
}

describe(`the store's transactions on ${DRIVER}`, () => {
  it('commit what the work wrote, and return what it returned', () => {
    withTable((db, tx) => {
      expect(tx.immediate(() => db.exec("INSERT INTO t VALUES ('a')") ?? 'done')).toBe('done');
      expect(tx.deferred(() => rows(db))).toEqual(['a']);
    });
  });

  it('roll back everything when the work throws, and let the error through', () => {
    withTable((db, tx) => {
      const failure = new Error('halfway');
      expect(() =>
        tx.immediate(() => {
          db.exec("INSERT INTO t VALUES ('a')");
          throw failure;
        }),
      ).toThrow(failure);
      expect(rows(db)).toEqual([]);
      // The connection is out of the transaction: a new one starts.
      tx.immediate(() => db.exec("INSERT INTO t VALUES ('b')"));
      expect(rows(db)).toEqual(['b']);
    });
  });

  it('undo a refused item alone under its savepoint, keeping the others', () => {
    withTable((db, tx) => {
      const outcomes = tx.immediate(() =>
        ['a', 'b', 'a', 'c'].map((v) =>
          tx.attempt(() => {
            db.exec(`INSERT INTO t VALUES ('${v}-first')`);
            db.exec(`INSERT INTO t VALUES ('${v}')`);
          }),
        ),
      );
      expect(outcomes.map((o) => (o === undefined ? 'written' : 'refused'))).toEqual([
        'written',
        'written',
        'refused',
        'written',
      ]);
      // The refused item's first insert is gone too.
      expect(rows(db)).toEqual(['a-first', 'a', 'b-first', 'b', 'c-first', 'c']);
    });
  });

  it('fail the whole transaction when SQLite ended it under an item (as after disk full or I/O)', () => {
    withTable((db, tx) => {
      const failure = new Error('the transaction went away');
      expect(() =>
        tx.immediate(() => {
          expect(tx.attempt(() => db.exec("INSERT INTO t VALUES ('a')"))).toBeUndefined();
          tx.attempt(() => {
            db.exec("INSERT INTO t VALUES ('b')");
            // What SQLite does itself after some disk-full and I/O errors.
            db.exec('ROLLBACK');
            throw failure;
          });
        }),
      ).toThrow(failure);
      expect(rows(db)).toEqual([]);
      tx.immediate(() => db.exec("INSERT INTO t VALUES ('c')"));
      expect(rows(db)).toEqual(['c']);
    });
  });
});
