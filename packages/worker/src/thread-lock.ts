import type pg from 'pg';
import { quoteIdentifier, THREAD_LOCK_NAMESPACE } from './sql-names.js';

/** A thread's session advisory lock, held while one job of this process runs the thread. */
export interface ThreadLock {
  /** Whether the thread was cancelled, read once the lock was held. */
  readonly cancelled: boolean;
  release(): Promise<void>;
}

/** The connection holding this process's thread locks, and whether it is still usable. */
interface Holder {
  readonly client: pg.PoolClient;
  broken: boolean;
  /** The queries on it, one after another (`pg` wants one at a time on a client). */
  queue: Promise<unknown>;
  /** Lets the local queue of each thread locked on it go on: called when its locks are lost. */
  readonly held: Set<() => void>;
}

/** Runs `text` on the holder once the queries asked for before it are done. */
function send<R extends pg.QueryResultRow>(
  holder: Holder,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  const result = holder.queue.then(() => holder.client.query<R>(text, values));
  holder.queue = result.catch(() => {});
  return result;
}

/**
 * The thread locks of one worker process, all held on one connection. They are session locks: if
 * this process dies, PostgreSQL drops the connection and every lock with it, which is how other
 * workers tell a live run from a dead one (see `StaleJobReaper`), and they keep two jobs of one
 * thread from running at once. One connection for all of them, not one per running thread, so a
 * thread waiting minutes on a model holds no connection: a worker running hundreds of threads
 * needs a handful.
 *
 * A signal job holds one too while it delivers, under a key no thread id can be
 * (`signalLockKey`), so the reaper can tell its live delivery from a dead worker's.
 *
 * A session lock is re-entrant within its session, so jobs of this process queue per thread here
 * first; only the one at the head asks PostgreSQL. A lock held elsewhere is waited for on a pooled
 * connection (the holder connection must never block), then asked for again.
 */
export class ThreadLocks {
  readonly #pool: pg.Pool;
  readonly #schema: string;
  /** Per thread, the end of the queue of this process's jobs for it. */
  readonly #queues = new Map<string, Promise<void>>();
  #holder: Promise<Holder> | undefined;
  /** What `#holder` resolved to, once it has. */
  #held: Holder | undefined;

  constructor(pool: pg.Pool, schema: string) {
    this.#pool = pool;
    this.#schema = schema;
  }

  /** Waits for and takes the thread's lock; rejects when the database cannot be reached. */
  async lock(threadId: string): Promise<ThreadLock> {
    const before = this.#queues.get(threadId) ?? Promise.resolve();
    let done: () => void = () => {};
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tail = before.then(() => mine);
    this.#queues.set(threadId, tail);
    let left = false;
    const leave = (): void => {
      if (left) return;
      left = true;
      done();
      if (this.#queues.get(threadId) === tail) this.#queues.delete(threadId);
    };
    await before;
    let taken: { holder: Holder; cancelled: boolean };
    try {
      taken = await this.#take(threadId);
    } catch (error) {
      leave();
      throw error;
    }
    // Its lock gone with the connection, the next job of the thread here may ask for it again
    // (and find, as before, that this process runs the thread).
    taken.holder.held.add(leave);
    let released = false;
    return {
      cancelled: taken.cancelled,
      release: async () => {
        if (released) return;
        released = true;
        try {
          await this.#unlock(taken.holder, threadId);
        } finally {
          taken.holder.held.delete(leave);
          leave();
        }
      },
    };
  }

  async #take(threadId: string): Promise<{ holder: Holder; cancelled: boolean }> {
    for (;;) {
      const holder = await this.#connection();
      let row: { locked: boolean; cancelled: boolean } | undefined;
      try {
        // The cancellation check rides along (one round trip): a cancel committed later still
        // reaches the run through NOTIFY.
        ({
          rows: [row],
        } = await send<{ locked: boolean; cancelled: boolean }>(
          holder,
          `select pg_try_advisory_lock($1, hashtext($2)) as locked,
                  exists (select 1 from ${quoteIdentifier(this.#schema)}.cancellations
                           where thread_id = $2) as cancelled`,
          [THREAD_LOCK_NAMESPACE, threadId],
        ));
      } catch (error) {
        this.#drop(holder, error);
        throw error;
      }
      if (row?.locked) return { holder, cancelled: row.cancelled };
      // Another process runs the thread: wait until it lets go, then ask again (a third process
      // may get it first).
      await this.#pool.query(
        'select pg_advisory_lock($1, hashtext($2)), pg_advisory_unlock($1, hashtext($2))',
        [THREAD_LOCK_NAMESPACE, threadId],
      );
    }
  }

  async #unlock(holder: Holder, threadId: string): Promise<void> {
    // A connection lost meanwhile took the lock with it.
    if (holder.broken) return;
    try {
      await send(holder, 'select pg_advisory_unlock($1, hashtext($2))', [
        THREAD_LOCK_NAMESPACE,
        threadId,
      ]);
    } catch (error) {
      // A connection in doubt is closed, which frees its locks anyway.
      this.#drop(holder, error);
    }
  }

  #connection(): Promise<Holder> {
    const current = this.#holder;
    if (current) return current;
    const opening = this.#pool.connect().then((client) => {
      const holder: Holder = { client, broken: false, queue: Promise.resolve(), held: new Set() };
      this.#held = holder;
      // Held idle between lock calls: a connection dropped meanwhile (a database restart) emits
      // 'error' on it, which must not go unheard (the process would exit). Its locks went with
      // it; the threads' leases still fence the runs (see `StaleJobReaper`).
      client.on('error', (error) => this.#drop(holder, error));
      return holder;
    });
    this.#holder = opening;
    opening.catch(() => {
      if (this.#holder === opening) this.#holder = undefined;
    });
    return opening;
  }

  /** Closes a failed holder connection; the next lock opens another. */
  #drop(holder: Holder, error: unknown): void {
    if (holder.broken) return;
    holder.broken = true;
    if (this.#held === holder) {
      this.#held = undefined;
      this.#holder = undefined;
    }
    holder.client.release(error instanceof Error ? error : true);
    for (const leave of holder.held) leave();
    holder.held.clear();
  }

  /** Gives the holder connection back (its locks go with it); call once no job runs. */
  async close(): Promise<void> {
    const opening = this.#holder;
    this.#holder = undefined;
    this.#held = undefined;
    const holder = await opening?.catch(() => undefined);
    if (!holder || holder.broken) return;
    holder.broken = true;
    // Destroyed rather than returned: a pooled connection must not keep session locks.
    holder.client.release(true);
  }
}
