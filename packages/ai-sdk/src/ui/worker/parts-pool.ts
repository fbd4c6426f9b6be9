/** A notification on a LISTEN connection (what `pg` gives a `notification` listener). */
export interface PoolNotification {
  readonly channel: string;
  readonly payload?: string | undefined;
}

/** One connection taken from the pool (a `pg.PoolClient`). */
export interface PoolConnection {
  query(text: string, values?: unknown[]): Promise<unknown>;
  on(event: 'notification', listener: (message: PoolNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  release(error?: Error | boolean): void;
}

/**
 * The PostgreSQL pool the UI parts are kept through: a `pg.Pool` on the worker's database.
 * Typed by what the handler uses, so this package does not depend on `pg`.
 */
export interface PartsPool {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<PoolConnection>;
}
