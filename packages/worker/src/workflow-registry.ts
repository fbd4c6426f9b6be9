import type pg from 'pg';
import { quoteIdentifier } from './sql-names.js';

/**
 * The workflow ids any worker of a schema has ever had: each worker adds its engine's on start.
 * A client has no engine, so this is how `enqueueThread` tells a workflow no worker could run
 * from one that is merely not running right now. Rows are never removed by the worker: delete
 * one when no worker will serve that workflow again.
 */
export async function registerWorkflows(
  pool: pg.Pool,
  schema: string,
  workflowIds: readonly string[],
): Promise<void> {
  if (workflowIds.length === 0) return;
  await pool.query(
    `insert into ${quoteIdentifier(schema)}.workflows (workflow_id)
     select unnest($1::text[]) on conflict do nothing`,
    [workflowIds],
  );
}

export async function isWorkflowRegistered(
  pool: pg.Pool,
  schema: string,
  workflowId: string,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `select 1 from ${quoteIdentifier(schema)}.workflows where workflow_id = $1`,
    [workflowId],
  );
  return (rowCount ?? 0) > 0;
}
