import { SkeinError } from '@skein/spec';

// SQLSTATE classes (and Node socket codes) where the same call can succeed later: connection
// trouble, serialization failures and deadlocks, insufficient resources, an admin shutdown.
const TRANSIENT = /^(08|40|53|57P0[1-3]|E(CONN|TIMEDOUT|PIPE|HOSTUNREACH|AI_AGAIN))/;

/**
 * PostgreSQL (or the connection to it) failed a call: the server is down, a permission is missing,
 * a statement timed out. A failed save wrote nothing (its transaction rolled back). `code` on
 * the cause is the SQLSTATE or socket error; `retryable` says whether trying again can help.
 */
export class StoreDatabaseError extends SkeinError<'STORE_DATABASE'> {
  static override readonly errorName = 'StoreDatabaseError';
  readonly schema: string;
  readonly operation: string;
  /** The SQLSTATE (`'42501'`) or socket error code (`'ECONNREFUSED'`), when there is one. */
  readonly sqlState: string | undefined;

  constructor(schema: string, operation: string, cause: unknown, sqlState?: string) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      'STORE_DATABASE',
      `Postgres checkpoint store (schema "${schema}") failed during ${operation}${sqlState ? ` [${sqlState}]` : ''}: ${reason}`,
      {
        cause,
        details: { schema, operation, ...(sqlState ? { sqlState } : {}) },
        retryable:
          sqlState === undefined ? /connection|terminat/i.test(reason) : TRANSIENT.test(sqlState),
      },
    );
    this.schema = schema;
    this.operation = operation;
    this.sqlState = sqlState;
  }
}
