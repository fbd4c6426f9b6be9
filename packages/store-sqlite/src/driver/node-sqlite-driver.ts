import { existsSync } from 'node:fs';
import type { SqliteConnection, SqliteDriver, SqliteStatement, SqlValue } from './connection.js';
import type { NodeSqliteModule, NodeSqliteStatement } from './node-sqlite.js';
import { primaryCodeName } from './result-codes.js';

/** A bigint read back as the nearest number, as better-sqlite3 reads an integer beyond 2^53. */
function toNumber(value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

/** node:sqlite's row (null prototype, bigints) as the plain object better-sqlite3 gives. */
function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(row)) plain[key] = toNumber(row[key]);
  return plain;
}

function firstColumn(row: Record<string, unknown>): unknown {
  const [key] = Object.keys(row);
  return key === undefined ? undefined : toNumber(row[key]);
}

function statement<P extends SqlValue[], Row>(
  stmt: NodeSqliteStatement,
  read: (row: Record<string, unknown>) => unknown,
): SqliteStatement<P, Row> {
  // Every integer as a bigint, turned into a number on the way out: an expiry of 2^60 stored by
  // one driver must read back on the other instead of throwing ERR_OUT_OF_RANGE.
  stmt.setReadBigInts(true);
  return {
    run: (...params) => {
      const { changes, lastInsertRowid } = stmt.run(...params);
      return { changes: Number(changes), lastInsertRowid: Number(lastInsertRowid) };
    },
    get: (...params) => {
      const row = stmt.get(...params);
      return (row === undefined ? undefined : read(row)) as Row | undefined;
    },
    all: (...params) => stmt.all(...params).map(read) as Row[],
  };
}

function isSqliteError(error: unknown): error is Error & { errcode: number } {
  return (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === 'ERR_SQLITE_ERROR' &&
    typeof (error as { errcode?: unknown }).errcode === 'number'
  );
}

export function nodeSqliteDriver(sqlite: NodeSqliteModule): SqliteDriver {
  return {
    name: 'node:sqlite',
    open(filename, options = {}) {
      // node:sqlite creates a missing file whenever it opens one read-write, and takes no URI
      // filename (`?mode=rw`) to say otherwise, so the file is looked for just before.
      if (options.mustExist && filename !== ':memory:' && !existsSync(filename))
        throw Object.assign(new Error(`unable to open database file: ${filename} does not exist`), {
          code: 'ENOENT',
        });
      const db = new sqlite.DatabaseSync(filename, { readOnly: options.readonly ?? false });
      let open = true;
      const connection: SqliteConnection = {
        driver: 'node:sqlite',
        get isOpen() {
          return open;
        },
        prepare: (sql) => statement(db.prepare(sql), plainRow),
        column: (sql) => statement(db.prepare(sql), firstColumn),
        exec: (sql) => db.exec(sql),
        close: () => {
          // node:sqlite throws when a closed database is closed again; better-sqlite3 does not.
          if (!open) return;
          open = false;
          db.close();
        },
      };
      return connection;
    },
    sqliteCode: (error) => (isSqliteError(error) ? primaryCodeName(error.errcode) : undefined),
    // A built-in module: nothing to build, nothing that fails to load once it is there.
    failedToLoad: () => false,
  };
}
