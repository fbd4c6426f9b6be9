import type pg from 'pg';
import { quoteIdentifier } from './sql-names.js';

/** The job as graphile-worker handed it to the task (the fields used here). */
export interface TakenJob {
  readonly id: string;
  readonly payload: unknown;
  /** The pool that holds the job; another pool's lock means the job is no longer ours. */
  readonly locked_by: string | null;
  /** Its named queue (a sender's send jobs for a thread share one), or null. */
  readonly job_queue_id: number | null;
}

/**
 * Thrown by the task once it has set its job aside (`deferJob`): graphile-worker's failure update
 * then unlocks the job, noting this message in `last_error` and adding its backoff to `run_at`
 * (a second for a job with no failed attempt), and, unlike on success, does not delete it. Logged
 * at debug level (connection-options).
 */
export class JobSetAside extends Error {
  constructor(threadId: string, why: string) {
    super(`Job of thread ${threadId} set aside: ${why}`);
    this.name = 'JobSetAside';
  }
}

export function isSetAside(value: unknown): boolean {
  return value instanceof JobSetAside;
}

/** How long a job waits after its `n`-th deferral: doubling from `baseMs`, at most 30 s. */
export function deferralDelayMs(baseMs: number, n: number): number {
  return Math.min(30_000, Math.max(250, baseMs) * 2 ** Math.min(n, 10));
}

/**
 * Sets a job aside for later without counting the attempt: due after `delayMs`, its deferral count
 * in the payload. It stays locked: the task then throws `JobSetAside`, and graphile-worker's
 * failure update, which matches only a job its pool still locks, unlocks it. Unlocking it here
 * would let this pool take it again before that update ran (it waits for a free connection), which
 * would then unlock the second run's job under it. Until it is due again the reaper leaves it
 * alone (it takes only due jobs), and `locked_at` restarts so a dead worker's job set aside is
 * reaped no sooner than a job just taken. Only while this pool still holds it; a job another
 * worker took over is that worker's.
 */
export async function deferJob(
  pool: pg.Pool,
  graphileSchema: string,
  job: TakenJob,
  delayMs: number,
  deferrals: number,
): Promise<void> {
  const payload = Object.assign({}, job.payload as Record<string, unknown>, { deferrals });
  await pool.query(
    `update ${quoteIdentifier(graphileSchema)}._private_jobs
        set run_at = now() + $3 * interval '1 millisecond',
            locked_at = now(),
            attempts = greatest(attempts - 1, 0),
            payload = $4::json
      where id = $1 and locked_by = $2`,
    [job.id, job.locked_by, delayMs, JSON.stringify(payload)],
  );
}

/**
 * Sets a job aside behind an earlier job of its named queue that is still to run (set aside
 * itself, or to be retried after a failure), so it is due no sooner than that one: one sender's
 * messages go in the order they were queued. graphile-worker runs a named queue's jobs one at a
 * time, but picks the next by `run_at`, so a job set aside for later would otherwise be passed by
 * the next one. Like `deferJob`, only while this pool holds it, without counting the attempt (the
 * task then throws `JobSetAside`, and the failure update's backoff puts it after the earlier one).
 * Resolves false, changing nothing, when no earlier job of its queue is still to run; a job that
 * failed for good (`attempts = max_attempts`) is not waited for.
 */
export async function deferBehindEarlier(
  pool: pg.Pool,
  graphileSchema: string,
  job: TakenJob,
): Promise<boolean> {
  if (job.job_queue_id === null) return false;
  const { rowCount } = await pool.query(
    `update ${quoteIdentifier(graphileSchema)}._private_jobs j
        set run_at = greatest(now(), earlier.run_at),
            locked_at = now(),
            attempts = greatest(j.attempts - 1, 0)
       from (select max(run_at) as run_at
               from ${quoteIdentifier(graphileSchema)}._private_jobs
              where job_queue_id = $3 and id < $1 and attempts < max_attempts) earlier
      where j.id = $1 and j.locked_by = $2 and earlier.run_at is not null`,
    [job.id, job.locked_by, job.job_queue_id],
  );
  return rowCount === 1;
}

/**
 * Makes this attempt the job's last: when the task then throws, graphile-worker records the error
 * once and never takes the job again (its `jobs` view shows it with `last_error`).
 */
export async function makeLastAttempt(
  pool: pg.Pool,
  graphileSchema: string,
  job: TakenJob,
): Promise<void> {
  await pool.query(
    `update ${quoteIdentifier(graphileSchema)}._private_jobs
        set max_attempts = attempts
      where id = $1 and locked_by = $2`,
    [job.id, job.locked_by],
  );
}
