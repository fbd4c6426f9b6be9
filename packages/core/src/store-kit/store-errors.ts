import { StoreError } from '@skein/spec';

/**
 * The codes of the `StoreError`s every durable store throws (the class is `@skein/spec`'s; a
 * store adds its own codes for its database's failures):
 * - `STORE_CLOSED`: a method called after `close()`.
 * - `STORE_CORRUPT`: stored data that does not read back (a row that no longer parses, counts the
 *   rows contradict, a damaged file). Nothing is changed by the refusal.
 * - `STORE_TOO_NEW`: the data was written by a newer version of the store's package; it is never
 *   downgraded.
 * - `STORE_UNSERIALIZABLE`: a checkpoint holding a value a JSON round trip would not give back
 *   unchanged (NaN, a BigInt, a Date, a cycle, `undefined` in an array…), refused before anything
 *   is written: the thread's previous checkpoint stays the latest.
 *
 * None is retryable.
 */
export type StoreKitErrorCode =
  | 'STORE_CLOSED'
  | 'STORE_CORRUPT'
  | 'STORE_TOO_NEW'
  | 'STORE_UNSERIALIZABLE';

/** Who a store is, as its errors say it. */
export interface StoreIdentity {
  /**
   * How a message names the store, starting a sentence: `Checkpoint database /srv/threads.db`,
   * `Postgres checkpoint store in schema "skein"`.
   */
  readonly name: string;
  /** The facts that name it, first in every error's `details`: `{ filename }`, `{ schema }`. */
  readonly details: Readonly<Record<string, unknown>>;
  /** The package whose version wrote the data, for `STORE_TOO_NEW`: `@skein/store-sqlite`. */
  readonly packageName: string;
}

/** `STORE_CLOSED`; `details`: the store's, `operation`. */
export function storeClosed(store: StoreIdentity, operation: string): StoreError<'STORE_CLOSED'> {
  return new StoreError(
    'STORE_CLOSED',
    `${store.name} was closed; ${operation} needs a new store`,
    { details: { ...store.details, operation } },
  );
}

/** `STORE_CORRUPT`; `details`: the store's, `problem`, and `options.details`. */
export function storeCorrupt(
  store: StoreIdentity,
  problem: string,
  options: { cause?: unknown; details?: Record<string, unknown> } = {},
): StoreError<'STORE_CORRUPT'> {
  return new StoreError('STORE_CORRUPT', `${store.name} is corrupt: ${problem}`, {
    cause: options.cause,
    details: { ...store.details, problem, ...options.details },
  });
}

/** `STORE_TOO_NEW`; `details`: the store's, `found` and `supported` (schema versions). */
export function storeTooNew(
  store: StoreIdentity,
  found: number,
  supported: number,
): StoreError<'STORE_TOO_NEW'> {
  return new StoreError(
    'STORE_TOO_NEW',
    `${store.name} has schema version ${found} but this ${store.packageName} supports up to ${supported}; upgrade the package (nothing was changed)`,
    { details: { ...store.details, found, supported } },
  );
}

/**
 * `STORE_UNSERIALIZABLE`; `details`: the store's, `threadId`, `checkpointId`, `path` (where the
 * value sits, e.g. `checkpoint.state.variables.total`) and `reason`.
 */
export function storeUnserializable(
  store: StoreIdentity,
  checkpoint: { readonly threadId: string; readonly id: string },
  found: { readonly path: string; readonly reason: string },
  cause?: unknown,
): StoreError<'STORE_UNSERIALIZABLE'> {
  return new StoreError(
    'STORE_UNSERIALIZABLE',
    `${store.name} cannot store checkpoint ${checkpoint.id} of thread ${checkpoint.threadId}: ${found.path} is ${found.reason}; nothing was written`,
    {
      cause,
      details: {
        ...store.details,
        threadId: checkpoint.threadId,
        checkpointId: checkpoint.id,
        path: found.path,
        reason: found.reason,
      },
    },
  );
}
