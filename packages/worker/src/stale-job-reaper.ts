import type pg from 'pg';
import { SIGNAL_LOCK_PREFIX, SIGNAL_TASK } from './signal-job.js';
import { quoteIdentifier, THREAD_LOCK_NAMESPACE, THREAD_TASK } from './sql-names.js';

export interface ReaperOptions {
  readonly pool: pg.Pool;
  readonly graphileSchema: string;
  /** A job locked for less than this is left alone (its worker may not hold its lock yet). */
  readonly staleAfterMs: number;
  readonly intervalMs: number;
  readonly onError: (error: unknown) => void;
}

/**
 * graphile-worker leaves a job locked for 4 hours when the process running it dies. Skein's jobs
 * hold a session advisory lock while they run (a thread job its thread's, a signal job its event
 * name's), so a due job that has been locked for a while although nobody holds its lock belongs to
 * a dead worker (or to a pool that could not record its end): unlock it and wake the pools, and
 * another worker continues the thread from its last checkpoint, or delivers the event.
 *
 * Only the stale jobs themselves are unlocked, not everything their pool holds: graphile-worker
 * 0.17 locks a job with its pool's id, which a live pool's other jobs share. A job not due yet
 * while locked was set aside by a live task (`deferJob`) and is unlocked by graphile-worker's own
 * failure update; it is reaped only if it is still locked once due.
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

  /** One pass; resolves to how many jobs were unlocked. */
  async sweep(): Promise<number> {
    const { pool, graphileSchema, staleAfterMs } = this.#options;
    const g = quoteIdentifier(graphileSchema);
    // Taking and at once dropping the job's lock proves nobody held it at that moment. OFFSET 0
    // fences the candidates so the lock is tried only for them; CASE fixes the order. A job row
    // another transaction holds is passed over, never waited for: it is graphile-worker's
    // completion deleting it (a task lets go of its thread lock before its job is completed), and
    // waiting on it while holding other job rows deadlocked with that batch once. The update
    // matches the job as it was read (pool and lock time), so a job that ended and was taken again
    // meanwhile is left to its new run; a job in a named queue has its queue unlocked with it.
    const { rows } = await pool.query<{ freed: string }>(
      `with stale as (
         select j.id, j.locked_by, j.locked_at, j.job_queue_id,
                case when t.identifier = $1 then j.payload->>'threadId'
                     else $5 || (j.payload->>'name') end as lock_key
           from ${g}._private_jobs j
           join ${g}._private_tasks t on t.id = j.task_id
          where t.identifier in ($1, $4)
            and j.locked_by is not null
            and j.run_at <= now()
            and j.locked_at < now() - make_interval(secs => $2::double precision / 1000)
          order by j.id
         offset 0
         for update of j skip locked
       ), dead as (
         select * from stale
          where lock_key is not null
            and case when pg_try_advisory_lock($3, hashtext(lock_key))
                     then pg_advisory_unlock($3, hashtext(lock_key)) else false end
       ), freed as (
         update ${g}._private_jobs j
            set locked_by = null, locked_at = null
           from dead d
          where j.id = d.id and j.locked_by = d.locked_by and j.locked_at = d.locked_at
         returning d.job_queue_id, d.locked_by
       ), queues as (
         update ${g}._private_job_queues q
            set locked_by = null, locked_at = null
           from freed f
          where q.id = f.job_queue_id and q.locked_by = f.locked_by
       )
       select count(*)::text as freed from freed`,
      [THREAD_TASK, staleAfterMs, THREAD_LOCK_NAMESPACE, SIGNAL_TASK, SIGNAL_LOCK_PREFIX],
    );
    const freed = Number(rows[0]?.freed ?? 0);
    if (freed === 0) return 0;
    await pool.query(`select pg_notify('jobs:insert', $1)`, [JSON.stringify({ count: freed })]);
    return freed;
  }
}
