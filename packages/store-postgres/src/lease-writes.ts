import type { LeaseRequest } from '@skein/spec';
import type { Pool } from 'pg';
import type { Outcome } from './group-commit.js';
import { query } from './query.js';
import type { Statements } from './statements.js';
import { isStatementRefusal, translateError } from './translate-error.js';

/** What the lease statements need of the store. */
export interface LeaseTarget {
  readonly pool: Pool;
  readonly sql: Statements;
  readonly schema: string;
}

export interface AcquireRequest {
  readonly threadId: string;
  readonly lease: LeaseRequest;
}

export interface ReleaseRequest {
  readonly threadId: string;
  readonly owner: string;
}

/**
 * The outcomes of a statement that failed for all of `items`. When the server refused the
 * statement itself (a deadlock, say: nothing of it was written), each item is tried alone, so
 * only one that cannot be written fails; otherwise every item fails with the error.
 */
async function failed<T, R>(
  error: unknown,
  items: readonly T[],
  alone: (item: T) => Promise<Outcome<R>[]>,
  target: LeaseTarget,
  operation: string,
): Promise<Outcome<R>[]> {
  if (items.length > 1 && isStatementRefusal(error))
    return (await Promise.all(items.map(alone))).flat();
  const refusal = translateError(error, target.schema, operation);
  return items.map(() => ({ refusal }));
}

/**
 * Takes or renews the leases of distinct threads in one statement (one transaction, one round
 * trip); each outcome's value says whether that lease was taken.
 */
export async function acquireLeases(
  target: LeaseTarget,
  requests: readonly AcquireRequest[],
): Promise<Outcome<boolean>[]> {
  if (requests.length === 0) return [];
  try {
    const { rows } = await query<{ taken: boolean }>(target.pool, target.sql.acquireLeases, [
      requests.map((r) => r.threadId),
      requests.map((r) => r.lease.owner),
      requests.map((r) => r.lease.expiresAt),
      requests.map((r) => r.lease.now),
    ]);
    return rows.map((row) => ({ value: row.taken }));
  } catch (error) {
    return failed(error, requests, (one) => acquireLeases(target, [one]), target, 'acquireLease');
  }
}

/** Gives up the leases of distinct threads in one statement; another owner's lease stays. */
export async function releaseLeases(
  target: LeaseTarget,
  requests: readonly ReleaseRequest[],
): Promise<Outcome<undefined>[]> {
  if (requests.length === 0) return [];
  try {
    await query(target.pool, target.sql.releaseLeases, [
      requests.map((r) => r.threadId),
      requests.map((r) => r.owner),
    ]);
    return requests.map(() => ({ value: undefined }));
  } catch (error) {
    return failed(error, requests, (one) => releaseLeases(target, [one]), target, 'releaseLease');
  }
}
