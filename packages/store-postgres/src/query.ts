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

/** Runs one statement with the store's type parsing, on a pool or a checked-out client. */
export async function query<R extends QueryResultRow>(
  on: Pool | PoolClient,
  text: string,
  values: unknown[] = [],
): Promise<{ rows: R[]; rowCount: number }> {
  const result = await on.query<R>({ text, values, types });
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
