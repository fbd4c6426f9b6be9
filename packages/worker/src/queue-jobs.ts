import type pg from 'pg';
import { quoteIdentifier } from './sql-names.js';

/** The job as graphile-worker handed it to the task (the fields used here). */
export interface TakenJob {
  readonly id: string;
  readonly payload: unknown;
  /** The pool that holds the job; another pool's lock means the job is no longer ours. */
  readonly locked_by: string | null;
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
