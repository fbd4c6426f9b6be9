import { checkNumber, describeValue } from '@skein/core/store-kit';
import { InvalidArgumentError } from '@skein/spec';
import type { Pool } from 'pg';

interface CommonOptions {
  /**
   * The PostgreSQL schema holding the store's tables, created by the first migration (default
   * `skein`). Lower-case letters, digits and `_`, starting with a letter or `_`, at most 63
   * characters, not starting with `pg_`: one schema per independent store in a database.
   */
  readonly schema?: string;
}

/** Options of a store on a pool the caller owns (and closes: `store.close()` leaves it open). */
export interface PostgresPoolOptions extends CommonOptions {
  readonly pool: Pool;
  readonly connectionString?: undefined;
}

/** Options of a store that opens its own pool; `store.close()` ends it. */
export interface PostgresConnectionOptions extends CommonOptions {
  /** `postgres://user:password@host:port/database`, as `pg` takes it. */
  readonly connectionString: string;
  readonly pool?: undefined;
  /** Connections the store's pool may open at once (default 10, as `pg`'s own default). */
  readonly maxConnections?: number;
}

export type PostgresCheckpointStoreOptions = PostgresPoolOptions | PostgresConnectionOptions;

const DEFAULT_SCHEMA = 'skein';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Returns the schema name to use. Only plain lower-case identifiers pass: the name is written
 * into SQL (quoted), and PostgreSQL folds unquoted names to lower case, so `Skein` would be a
 * different schema to psql users than to the store.
 */
export function checkSchema(schema: unknown): string {
  if (schema === undefined) return DEFAULT_SCHEMA;
  if (typeof schema !== 'string' || !IDENTIFIER.test(schema) || schema.startsWith('pg_'))
    throw new InvalidArgumentError(
      'schema',
      `schema must be a lower-case SQL identifier (a-z, 0-9, _; not starting with a digit or pg_; at most 63 characters), got ${describeValue(schema)}`,
      { value: schema },
    );
  return schema;
}

function isPool(value: unknown): value is Pool {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Pool).connect === 'function' &&
    typeof (value as Pool).query === 'function'
  );
}

/** Refuses options of the wrong kind before any connection is made. */
export function checkOptions(options: PostgresCheckpointStoreOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(
      'options',
      'PostgresCheckpointStore needs { pool } or { connectionString }',
    );
  const { pool, connectionString } = options;
  if (pool !== undefined && connectionString !== undefined)
    throw new InvalidArgumentError(
      'options',
      'PostgresCheckpointStore takes { pool } or { connectionString }, not both',
    );
  if (pool !== undefined) {
    if (!isPool(pool))
      throw new InvalidArgumentError('pool', `pool must be a pg.Pool, got ${describeValue(pool)}`);
  } else if (typeof connectionString !== 'string' || connectionString.length === 0)
    throw new InvalidArgumentError(
      'connectionString',
      `PostgresCheckpointStore needs { pool } or a non-empty connectionString, got ${describeValue(connectionString)}`,
    );
  const max = (options as PostgresConnectionOptions).maxConnections;
  if (max !== undefined) {
    if (pool !== undefined)
      throw new InvalidArgumentError(
        'maxConnections',
        'maxConnections applies to the pool the store opens; set max on your own pool instead',
      );
    checkNumber('maxConnections', max, { min: 1, max: 10_000, integer: true });
  }
  checkSchema(options.schema);
}
