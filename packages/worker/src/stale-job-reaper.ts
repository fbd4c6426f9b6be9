import type pg from 'pg';
import { quoteIdentifier, THREAD_LOCK_NAMESPACE, THREAD_TASK } from './sql-names.js';

export interface ReaperOptions {
  readonly pool: pg.Pool;
  readonly graphileSchema: string;
  /** A job locked for less than this is left alone (its worker may not hold the thread lock yet). */
  readonly staleAfterMs: number;
  readonly intervalMs: number;
  readonly onError: (error: unknown) => void;
}

/**
 * graphile-worker leaves a job locked for 4 hours when the process running it dies. Skein's jobs
 * hold their thread's session advisory lock while they run, so a job that has been locked for a
 * while although nobody holds its thread's lock belongs to a dead worker: unlock that worker's
 * jobs and wake the pool, and another worker continues the thread from its last checkpoint.
 */
export class StaleJobReaper {
  readonly #options: ReaperOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;

  constructor(options: ReaperOptions) {
    this.#options = options;
  }

  start(): void {
    this.#timer = setInterval(() => {
      if (!this.#running)
        this.#running = this.sweep()
          .catch((error: unknown) => {
            this.#options.onError(error);
            return 0;
          })
          .finally(() => {
            this.#running = undefined;
          });
    }, this.#options.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /** One pass; resolves to how many dead workers' jobs were unlocked. */
  async sweep(): Promise<number> {
    const { pool, graphileSchema, staleAfterMs } = this.#options;
    const g = quoteIdentifier(graphileSchema);
    // Taking and at once dropping the thread lock proves nobody held it at that moment. OFFSET 0
    // fences the candidates so the lock is tried only for them; CASE fixes the order.
    const { rows } = await pool.query<{ locked_by: string }>(
      `select distinct locked_by from (
         select j.locked_by, j.payload->>'threadId' as thread_id
           from ${g}._private_jobs j
           join ${g}._private_tasks t on t.id = j.task_id
          where t.identifier = $1
            and j.locked_by is not null
            and j.locked_at < now() - make_interval(secs => $2::double precision / 1000)
         offset 0) stale
        where case when pg_try_advisory_lock($3, hashtext(thread_id))
                   then pg_advisory_unlock($3, hashtext(thread_id)) else false end`,
      [THREAD_TASK, staleAfterMs, THREAD_LOCK_NAMESPACE],
    );
    if (rows.length === 0) return 0;
    const workers = rows.map((row) => row.locked_by);
    await pool.query(`select ${g}.force_unlock_workers($1::text[])`, [workers]);
    await pool.query(`select pg_notify('jobs:insert', $1)`, [
      JSON.stringify({ count: workers.length }),
    ]);
    return workers.length;
  }
}
