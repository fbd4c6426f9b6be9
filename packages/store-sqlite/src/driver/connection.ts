/** The SQLite libraries the store can run on. */
export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite';

/** What the store binds: integers, floats, text, NULL and an attachment's bytes; never bigints. */
export type SqlValue = string | number | null | Uint8Array;

interface RunResult {
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

/**
 * A prepared statement. Parameters are positional (`?`) only: better-sqlite3 binds a named one by
 * its bare name (`{ x }` for `@x`) and refuses the prefixed name, node:sqlite takes both, so
 * positional parameters are the one way that means the same on both.
 */
export interface SqliteStatement<P extends SqlValue[], Row> {
  run(...params: P): RunResult;
  get(...params: P): Row | undefined;
  all(...params: P): Row[];
}

/**
 * One connection to a database, the same on both drivers: rows are plain objects (node:sqlite's
 * have a null prototype), integers are numbers (node:sqlite throws on one beyond 2^53 unless it
 * reads bigints; better-sqlite3 gives the nearest number, and so does this), and transactions are
 * the store's own `BEGIN` … `COMMIT` (node:sqlite has no `transaction()` helper, see
 * `transactions.ts`).
 */
export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  /** False once closed. */
  readonly isOpen: boolean;
  /** A statement whose rows are objects keyed by column name. */
  prepare<P extends SqlValue[] = [], Row = unknown>(sql: string): SqliteStatement<P, Row>;
  /** A statement whose rows are their first column's value. */
  column<P extends SqlValue[] = [], Value = unknown>(sql: string): SqliteStatement<P, Value>;
  /** Runs one or more statements that return nothing. */
  exec(sql: string): void;
  close(): void;
}

export interface OpenOptions {
  /** Open read-only: nothing is created or written. */
  readonly readonly?: boolean;
  /** Refuse a missing file instead of creating it. */
  readonly mustExist?: boolean;
}

/** A SQLite library behind the store's one connection interface. */
export interface SqliteDriver {
  readonly name: SqliteDriverName;
  open(filename: string, options?: OpenOptions): SqliteConnection;
  /** SQLite's result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`…) when `error` is SQLite's refusal. */
  sqliteCode(error: unknown): string | undefined;
  /** Whether `error` means the driver's own code could not load (better-sqlite3's addon). */
  failedToLoad(error: unknown): boolean;
}

/** The first column of a row that holds the value of a `PRAGMA name` (or `PRAGMA name = v`). */
export function pragma(db: SqliteConnection, statement: string): unknown {
  return db.column(`PRAGMA ${statement}`).get();
}
