import type { StoreIdentity, StoreKitErrorCode } from '@skein/core/store-kit';
import { StoreError } from '@skein/spec';

/**
 * The codes of the `StoreError`s (from `@skein/spec`) this store throws: every store's
 * (`STORE_CLOSED`, `STORE_CORRUPT`, `STORE_TOO_NEW`, `STORE_UNSERIALIZABLE`) and
 * `STORE_DATABASE`: PostgreSQL (or the connection to it) failed a call: the server is down, a
 * permission is missing, a statement timed out. A failed save wrote nothing (its transaction
 * rolled back); `retryable` says whether trying again can help.
 *
 * Every one has the `schema` in its `details` and its message.
 */
export type PostgresStoreErrorCode = StoreKitErrorCode | 'STORE_DATABASE';

/** The store's schema, as the shared errors (`STORE_CORRUPT`, …) name it. */
export function postgresStore(schema: string): StoreIdentity {
  return {
    name: `Postgres checkpoint store in schema "${schema}"`,
    details: { schema },
    packageName: '@skein/store-postgres',
  };
}

// SQLSTATE classes (and Node socket codes) where the same call can succeed later: connection
// trouble, serialization failures and deadlocks, insufficient resources, an admin shutdown.
const TRANSIENT = /^(08|40|53|57P0[1-3]|E(CONN|TIMEDOUT|PIPE|HOSTUNREACH|AI_AGAIN))/;

/**
 * `STORE_DATABASE`; `details`: `schema`, `operation`, and `sqlState` when there is one (the
 * SQLSTATE, `'42501'`, or socket error code, `'ECONNREFUSED'`).
 */
export function storeDatabase(
  schema: string,
  operation: string,
  cause: unknown,
  sqlState?: string,
): StoreError<'STORE_DATABASE'> {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StoreError(
    'STORE_DATABASE',
    `${postgresStore(schema).name} failed during ${operation}${sqlState ? ` [${sqlState}]` : ''}: ${reason}`,
    {
      cause,
      details: { schema, operation, ...(sqlState ? { sqlState } : {}) },
      retryable:
        sqlState === undefined ? /connection|terminat/i.test(reason) : TRANSIENT.test(sqlState),
    },
  );
}
