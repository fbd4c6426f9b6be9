import { storeCorrupt } from '@skein/core/store-kit';
import { SkeinError } from '@skein/spec';
import { postgresStore, storeDatabase } from './errors/store-errors.js';

/** PostgreSQL's SQLSTATE for a broken foreign key. */
export const FOREIGN_KEY_VIOLATION = '23503';

/** The SQLSTATE (or socket error code) of what `pg` threw, if any. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function isPgError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (errorCode(error) !== undefined ||
      /connection|terminat|timeout|Client was closed|pool/i.test(error.message))
  );
}

/**
 * Turns what `pg` or the server threw into a `StoreError` naming the schema and the call; Skein
 * errors and programming errors pass through unchanged.
 */
export function translateError(error: unknown, schema: string, operation: string): unknown {
  if (SkeinError.isInstance(error)) return error;
  if (!isPgError(error)) return error;
  const code = errorCode(error);
  // Our writes only break a unique key when rows exist that the thread's counts deny.
  if (code === '23505' || code === FOREIGN_KEY_VIOLATION)
    return storeCorrupt(
      postgresStore(schema),
      `stored rows contradict each other (${(error as Error).message})`,
      { cause: error, details: { operation } },
    );
  return storeDatabase(schema, operation, error, code);
}

/**
 * The server refused a statement for what its data did (a data exception, a broken constraint, a
 * deadlock): the statement's own transaction was rolled back, so nothing of it was written, and
 * a part of it tried alone may succeed. Lost connections and the like are not such refusals.
 */
export function isStatementRefusal(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && /^(22|23|40)[0-9A-Z]{3}$/.test(code);
}
