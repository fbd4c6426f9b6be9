import { storeCorrupt } from '@skein/core/store-kit';
import { SkeinError } from '@skein/spec';
import { postgresStore, storeDatabase } from './errors/store-errors.js';

function errorCode(error: unknown): string | undefined {
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
  if (code === '23505' || code === '23503')
    return storeCorrupt(
      postgresStore(schema),
      `stored rows contradict each other (${(error as Error).message})`,
      { cause: error, details: { operation } },
    );
  return storeDatabase(schema, operation, error, code);
}
