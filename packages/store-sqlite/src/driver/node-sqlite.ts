import type { SqlValue } from './connection.js';

// The part of node:sqlite the store uses, as Node 22.13 (the first release with it unflagged) has
// it. Later releases add to it (`isOpen`, `isTransaction`, `setReturnArrays`…); none of that is
// used, so the store runs on every Node that has node:sqlite. @types/node 20, which the packages
// build against, does not describe the module.

export interface NodeSqliteStatement {
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqlValue[]): Record<string, unknown> | undefined;
  all(...params: SqlValue[]): Record<string, unknown>[];
  /** Integers come back as bigints: without it one beyond 2^53 throws ERR_OUT_OF_RANGE. */
  setReadBigInts(enabled: boolean): void;
}

interface NodeSqliteDatabase {
  prepare(sql: string): NodeSqliteStatement;
  exec(sql: string): void;
  close(): void;
}

export interface NodeSqliteModule {
  readonly DatabaseSync: new (
    path: string,
    options?: { readonly readOnly?: boolean },
  ) => NodeSqliteDatabase;
}

/**
 * The `node:sqlite` module when this Node has it without a flag (22.13 or later), else undefined
 * (Node 20, or 22 before 22.13). Node 22 prints an ExperimentalWarning when it first loads.
 */
export function loadNodeSqlite(): NodeSqliteModule | undefined {
  // Node 20 before 20.16 has no getBuiltinModule, and no node:sqlite either.
  if (typeof process.getBuiltinModule !== 'function') return undefined;
  return process.getBuiltinModule('node:sqlite') as NodeSqliteModule | undefined;
}

/** Whether this Node can run the store on node:sqlite (what the default driver and the tests ask). */
export function nodeSqliteAvailable(): boolean {
  return loadNodeSqlite() !== undefined;
}
