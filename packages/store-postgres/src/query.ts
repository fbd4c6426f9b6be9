import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import pg from 'pg';

const INT8_OID = 20;

// Counts, steps and sequences are bigint columns; `pg` returns bigint as a string by default.
// Every value the store writes there is a safe integer, so a number comes back exactly.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A statement PostgreSQL prepares once per connection and then only executes: the save path's
 * statements are large, and parsing and planning them again on every save cost the server more
 * CPU than running them.
 */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * Names `text` by a digest of it, so two stores on one pool (two schemas, two texts) never give
 * one name to different statements, which `pg` refuses on a connection.
 */
export function named(text: string): NamedStatement {
  return { name: `skein_${createHash('sha256').update(text).digest('hex').slice(0, 40)}`, text };
}

/** Runs one statement with the store's type parsing, on a pool or a checked-out client. */
export async function query<R extends QueryResultRow>(
  on: Pool | PoolClient,
  statement: string | NamedStatement,
  values: unknown[] = [],
): Promise<{ rows: R[]; rowCount: number }> {
  const result = await on.query<R>(
    typeof statement === 'string'
      ? { text: statement, values, types }
      : { name: statement.name, text: statement.text, values, types },
  );
  return { rows: result.rows, rowCount: result.rowCount ?? 0 };
}

/**
 * Runs `work` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when it
 * throws. A connection whose ROLLBACK failed is destroyed rather than returned to the pool.
 */
export async function transaction<T>(
  pool: Pool,
  begin: string,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(begin);
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  try {
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => {
      broken = rollback;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
