import type { SqliteConnection, SqliteStatement } from './connection.js';

type Control = SqliteStatement<[], unknown>;

/**
 * The store's transactions, written as SQL so that both drivers run the same ones (node:sqlite
 * has no `transaction()` helper, and better-sqlite3's would be a second behaviour to keep in
 * step). The control statements are prepared once per connection.
 *
 * Whether SQLite is still in a transaction after a failure is learnt by trying to roll back:
 * node:sqlite before 22.16 cannot be asked (`isTransaction`), and after a disk-full or I/O error
 * SQLite may already have rolled the whole transaction back itself.
 */
export class Transactions {
  readonly #begin: Control;
  readonly #beginImmediate: Control;
  readonly #commit: Control;
  readonly #rollback: Control;
  readonly #savepoint: Control;
  readonly #release: Control;
  readonly #rollbackTo: Control;

  constructor(db: SqliteConnection) {
    this.#begin = db.prepare('BEGIN');
    this.#beginImmediate = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    this.#savepoint = db.prepare('SAVEPOINT skein_item');
    this.#release = db.prepare('RELEASE skein_item');
    this.#rollbackTo = db.prepare('ROLLBACK TO skein_item');
  }

  /**
   * `work` in a transaction holding the write lock from its start (`BEGIN IMMEDIATE`, which waits
   * up to the busy timeout for it); committed when `work` returns, rolled back when it throws.
   */
  immediate<T>(work: () => T): T {
    return this.#run(this.#beginImmediate, work);
  }

  /** `work` in a read transaction: all its reads see the database as of one moment. */
  deferred<T>(work: () => T): T {
    return this.#run(this.#begin, work);
  }

  /**
   * Inside a transaction, `work` under a savepoint: returns undefined when it ran, or what it
   * threw once its own writes are undone (the transaction's others stay). Throws what it threw
   * when SQLite rolled the whole transaction back: nothing is left to keep then.
   */
  attempt(work: () => void): unknown {
    this.#savepoint.run();
    try {
      work();
    } catch (error) {
      try {
        this.#rollbackTo.run();
        this.#release.run();
      } catch {
        // No savepoint any more: SQLite ended the transaction.
        throw error;
      }
      return error;
    }
    this.#release.run();
    return undefined;
  }

  #run<T>(begin: Control, work: () => T): T {
    begin.run();
    try {
      const result = work();
      this.#commit.run();
      return result;
    } catch (error) {
      try {
        this.#rollback.run();
      } catch {
        // SQLite already rolled back; the error that got here is the one to report.
      }
      throw error;
    }
  }
}
