import type pg from 'pg';
import { quoteIdentifier, THREAD_LOCK_NAMESPACE } from './sql-names.js';

/** A thread's session advisory lock, held on its own connection while one worker runs it. */
export interface ThreadLock {
  /** Whether the thread was cancelled, read once the lock was held. */
  readonly cancelled: boolean;
  release(): Promise<void>;
}

/**
 * Waits for and takes the thread's lock. It is a session lock: if this process dies, PostgreSQL
 * drops the connection and the lock with it, which is how other workers tell a live run from a
 * dead one (see `StaleJobReaper`), and it keeps two jobs of one thread from running at once.
 */
export async function lockThread(
  pool: pg.Pool,
  schema: string,
  threadId: string,
): Promise<ThreadLock> {
  const client = await pool.connect();
  // Held idle for the whole run: a connection dropped meanwhile (a database restart) emits
  // 'error' on it, which must not go unheard (the process would exit). The lock went with it; the
  // thread's lease still fences the run (see `StaleJobReaper`).
  const onError = (): void => {};
  client.on('error', onError);
  let cancelled: boolean;
  try {
    // The cancellation check rides along (one round trip): a cancel committed later still
    // reaches the run through NOTIFY.
    const { rows } = await client.query<{ cancelled: boolean }>(
      `select pg_advisory_lock($1, hashtext($2)) is not null
          and exists (select 1 from ${quoteIdentifier(schema)}.cancellations where thread_id = $2)
          as cancelled`,
      [THREAD_LOCK_NAMESPACE, threadId],
    );
    cancelled = rows[0]?.cancelled === true;
  } catch (error) {
    // Destroyed with its listener: a late 'error' of a dying connection is still heard.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  let released = false;
  return {
    cancelled,
    async release() {
      if (released) return;
      released = true;
      try {
        await client.query('select pg_advisory_unlock($1, hashtext($2))', [
          THREAD_LOCK_NAMESPACE,
          threadId,
        ]);
        client.off('error', onError);
        client.release();
      } catch (error) {
        // A connection in doubt is closed, which frees the lock anyway.
        client.release(error instanceof Error ? error : true);
      }
    },
  };
}
