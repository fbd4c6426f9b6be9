import { checkMigrationOrder, type MigrationResult, storeTooNew } from '@skein/core/store-kit';
import type { Pool } from 'pg';
import { postgresStore } from '../errors/store-errors.js';
import { query, transaction } from '../query.js';
import type { Migration } from './migrations.js';

/** The key of the advisory lock migrations of `schema` hold, the same in every process. */
function lockKey(schema: string): string {
  return `@skein/store-postgres:${schema}`;
}

async function currentVersion(pool: Pool, quoted: string): Promise<number | undefined> {
  const { rows } = await query<{ version: number | null }>(
    pool,
    `SELECT CASE WHEN to_regclass($1) IS NULL THEN NULL ELSE 0 END AS version`,
    [`${quoted}.migrations`],
  );
  if (rows[0]?.version === null) return undefined;
  const max = await query<{ version: number }>(
    pool,
    `SELECT coalesce(max(version), 0)::int AS version FROM ${quoted}.migrations`,
  );
  return max.rows[0]?.version ?? 0;
}

/**
 * Brings `schema` to the last version of `migrations`. The common case (already there) is one
 * read without a lock. Otherwise one transaction takes a transaction-scoped advisory lock keyed
 * by the schema name, so processes starting together queue; reads the version again under it;
 * runs every pending migration and records it in `<schema>.migrations`. DDL is transactional in
 * PostgreSQL: any failure leaves the schema as it was. A schema newer than the list is refused.
 */
export async function applyMigrations(
  pool: Pool,
  schema: string,
  migrations: readonly Migration[],
): Promise<MigrationResult> {
  checkMigrationOrder(migrations);
  const latest = migrations.length;
  const quoted = `"${schema}"`;
  const seen = await currentVersion(pool, quoted);
  if (seen !== undefined && seen > latest) throw storeTooNew(postgresStore(schema), seen, latest);
  if (seen === latest) return { from: latest, to: latest };
  return transaction(pool, 'BEGIN', async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lockKey(schema)]);
    // Only when missing: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when the
    // schema exists, and a user granted only a schema made for it must still be able to migrate.
    const existing = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (existing.rowCount === 0) await client.query(`CREATE SCHEMA ${quoted}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoted}.migrations (
         version integer PRIMARY KEY,
         description text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await query<{ version: number }>(
      client,
      `SELECT coalesce(max(version), 0)::int AS version FROM ${quoted}.migrations`,
    );
    const from = rows[0]?.version ?? 0;
    if (from > latest) throw storeTooNew(postgresStore(schema), from, latest);
    for (const migration of migrations.slice(from)) {
      await client.query(migration.sql(quoted));
      await client.query(
        `INSERT INTO ${quoted}.migrations (version, description) VALUES ($1, $2)`,
        [migration.version, migration.description],
      );
    }
    return { from, to: latest };
  });
}
