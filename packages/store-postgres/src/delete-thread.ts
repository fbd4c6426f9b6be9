import type { Pool, PoolClient } from 'pg';
import { query, transaction } from './query.js';
import type { DeletedThreadRow, Statements } from './statements.js';
import { errorCode, FOREIGN_KEY_VIOLATION } from './translate-error.js';

const DEADLOCK = '40P01';

/** Tries of the transaction that hands a thread's rows to its forks, when it lost a race. */
const ATTEMPTS = 3;

/**
 * Deletes a thread with its checkpoints, messages, log entries and lease; true when it existed.
 * A thread no fork reads from goes in one statement, as it always did. One with forks first hands
 * each fork its own rows the fork reads, in one transaction with the delete, so the forks lose
 * nothing and never see the thread half gone.
 */
export async function deleteThread(
  pool: Pool,
  sql: Statements,
  threadId: string,
): Promise<boolean> {
  try {
    const { rows } = await query<{ deleted: number; forked: boolean }>(pool, sql.deleteThread, [
      threadId,
    ]);
    if (!rows[0]?.forked) return (rows[0]?.deleted ?? 0) > 0;
  } catch (error) {
    // A fork committed after the statement began, so it did not see it: the key refused the
    // delete, and nothing of it happened.
    if (errorCode(error) !== FOREIGN_KEY_VIOLATION) throw error;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(pool, 'BEGIN', (client) => deleteForked(client, sql, threadId));
    } catch (error) {
      if (attempt >= ATTEMPTS || !lostRace(error)) throw error;
    }
  }
}

/**
 * Deleting a thread and one of its forks (that has forks of its own) at once can deadlock: each
 * locks its thread, then the other's. And a fork of a fork may be moved onto the thread after this
 * transaction looked for forks; the key then refuses the delete. Either way nothing was written,
 * and trying again sees what the other transaction committed.
 */
function lostRace(error: unknown): boolean {
  const code = errorCode(error);
  return code === DEADLOCK || code === FOREIGN_KEY_VIOLATION;
}

async function deleteForked(
  client: PoolClient,
  sql: Statements,
  threadId: string,
): Promise<boolean> {
  // Locked first, so no new fork of it can be saved; each later statement has a new snapshot, so
  // it sees any fork committed while this one waited for the lock.
  const thread = (await query<DeletedThreadRow>(client, sql.lockDeleted, [threadId])).rows[0];
  if (thread) {
    const forks = await query(client, sql.lockForks, [thread.id]);
    if (forks.rowCount > 0)
      await query(client, sql.detachForks, [
        thread.id,
        thread.base,
        thread.base_messages,
        thread.base_log,
      ]);
  }
  const { rowCount } = await query(client, sql.deleteDetached, [threadId]);
  return rowCount > 0;
}
