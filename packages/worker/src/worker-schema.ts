import type pg from 'pg';
import { migrateRateBudgets } from './rate-budget-schema.js';
import { quoteIdentifier } from './sql-names.js';

/** Serialises schema creation across processes starting at once (advisory transaction lock). */
const MIGRATE_LOCK = 0x736b6d67;

/**
 * Creates the worker's own tables (idempotent): which threads were enqueued, which are cancelled,
 * which resume job was applied to which paused checkpoint (so a retried job never feeds its input
 * to a later pause), which workflows the fleet's workers have, and the fleet's rate budgets.
 */
export async function migrateWorkerSchema(pool: pg.Pool, schema: string): Promise<void> {
  const s = quoteIdentifier(schema);
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATE_LOCK]);
    await client.query(`create schema if not exists ${s}`);
    await client.query(
      `create table if not exists ${s}.threads (
         thread_id text primary key,
         workflow_id text not null,
         enqueued_at timestamptz not null default now())`,
    );
    await client.query(
      `create table if not exists ${s}.cancellations (
         thread_id text primary key,
         requested_at timestamptz not null default now())`,
    );
    await client.query(
      `create table if not exists ${s}.applied_resumes (
         job_id text primary key,
         thread_id text not null,
         checkpoint_id text)`,
    );
    const { rows } = await client.query<{ missing: boolean }>(
      'select to_regclass($1) is null as missing',
      [`${s}.workflows`],
    );
    if (rows[0]?.missing) {
      await client.query(
        `create table ${s}.workflows (
           workflow_id text primary key,
           registered_at timestamptz not null default now())`,
      );
      // Added to a schema in use: what was enqueued before stays enqueueable.
      await client.query(
        `insert into ${s}.workflows (workflow_id) select distinct workflow_id from ${s}.threads`,
      );
    }
    await migrateRateBudgets(client, schema);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
