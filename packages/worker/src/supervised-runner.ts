import { EventEmitter } from 'node:events';
import { type Logger, type Runner, run, type TaskList, type WorkerEvents } from 'graphile-worker';
import type pg from 'pg';

export interface SupervisedRunnerOptions {
  readonly pool: pg.Pool;
  readonly graphileSchema: string;
  readonly logger: Logger;
  readonly concurrency: number;
  readonly shutdownTimeoutMs: number;
  readonly taskList: TaskList;
  readonly log: (level: 'error' | 'warning' | 'info', message: string) => void;
  /** graphile-worker stopped for a breaking migration of its schema: running on is unsafe. */
  readonly onBreakingMigration: () => void;
}

/** Waits between restarts: doubling from the first to the last, reset after a healthy spell. */
const FIRST_RESTART_MS = 500;
const LAST_RESTART_MS = 10_000;
const HEALTHY_MS = 30_000;

/** The events after which a pool runs no job any more. */
const DRAINED = [
  'pool:gracefulShutdown:complete',
  'pool:gracefulShutdown:error',
  'pool:forcefulShutdown:complete',
  'pool:forcefulShutdown:error',
] as const;

interface Supervised {
  readonly runner: Runner;
  /** Resolves once the runner's pool runs no job any more. */
  readonly drained: Promise<void>;
}

/**
 * graphile-worker's runner, started again whenever it dies. It dies when it cannot record a job's
 * end (the database went away while a job completed or failed): its pool then shuts down and
 * drains, and a new one takes jobs meanwhile. The jobs whose end was not recorded stay locked by
 * the dead pool until `StaleJobReaper` frees them.
 *
 * Two workarounds for graphile-worker 0.17. Completions and failures go through its batchers
 * (delay 0): unbatched, it drops their promise, and a database outage at that moment is an
 * unhandled rejection that ends the process. And a batcher that failed twice never finishes
 * releasing (its pending count goes below zero), so a dead pool's runner never settles and never
 * releases its cron timer: once the pool has drained, the runner is stopped here and not waited
 * for.
 */
export class SupervisedRunner {
  readonly #options: SupervisedRunnerOptions;
  readonly #runners = new Set<Supervised>();
  #failures = 0;
  #timer: NodeJS.Timeout | undefined;
  #launching: Promise<void> | undefined;
  #stopped = false;
  #breaking = false;

  constructor(options: SupervisedRunnerOptions) {
    this.#options = options;
  }

  /** Starts the first runner; rejects if it cannot (the database is unreachable). */
  start(): Promise<void> {
    return this.#launch();
  }

  async #launch(): Promise<void> {
    const { pool, graphileSchema, logger, concurrency, shutdownTimeoutMs, taskList } =
      this.#options;
    const events = new EventEmitter() as WorkerEvents;
    // Set before graphile-worker shuts down for it, so the shutdown is not taken for a failure.
    events.on('pool:listen:notification', ({ message }) => {
      if (message.channel !== 'worker:migrate') return;
      try {
        if ((JSON.parse(message.payload ?? '{}') as { breaking?: unknown }).breaking)
          this.#breaking = true;
      } catch {
        // Not graphile-worker's own notice.
      }
    });
    let drain: () => void = () => {};
    const drained = new Promise<void>((resolve) => {
      drain = resolve;
    });
    for (const name of DRAINED) events.on(name, () => drain());
    const runner = await run({
      pgPool: pool,
      schema: graphileSchema,
      logger,
      events,
      concurrency,
      noHandleSignals: true,
      // Retries and future runs are polled; new jobs wake workers at once through NOTIFY.
      pollInterval: 1_000,
      // Our own timeout hands threads back first; graphile's must not fail them before that.
      gracefulShutdownAbortTimeout: shutdownTimeoutMs + 30_000,
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
      taskList,
    });
    const supervised: Supervised = { runner, drained };
    this.#runners.add(supervised);
    const startedAt = Date.now();
    let ended = false;
    const end = (reason: string): void => {
      if (ended) return;
      ended = true;
      if (this.#stopped) return;
      if (this.#breaking) {
        this.#options.onBreakingMigration();
        return;
      }
      if (Date.now() - startedAt >= HEALTHY_MS) this.#failures = 0;
      this.#restartLater(`graphile-worker's pool stopped (${reason})`);
    };
    // A replacement starts as the old pool begins to drain, not once its running jobs are done.
    events.on('pool:gracefulShutdown', ({ message }) => end(message));
    void runner.promise.then(
      () => end('its runner ended'),
      (error: unknown) => end(String(error)),
    );
    void runner.promise.then(drain, drain);
    void drained.then(async () => {
      if (this.#stopped) return;
      await this.#stopRunner(supervised);
      this.#runners.delete(supervised);
    });
    if (this.#stopped) await this.#stopRunner(supervised);
  }

  #restartLater(why: string): void {
    if (this.#stopped || this.#timer) return;
    const delay = Math.min(FIRST_RESTART_MS * 2 ** this.#failures, LAST_RESTART_MS);
    this.#failures++;
    this.#options.log('warning', `${why}; starting graphile-worker again in ${delay} ms`);
    // Not unref'd: while the database is away this timer may be all that keeps the process up.
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#launching = this.#launch()
        .then(() => this.#options.log('info', 'graphile-worker started again'))
        .catch((error: unknown) =>
          this.#restartLater(`graphile-worker did not start (${String(error)})`),
        )
        .finally(() => {
          this.#launching = undefined;
        });
    }, delay);
  }

  async #stopRunner({ runner, drained }: Supervised): Promise<void> {
    // Rejects when it is stopping already; either way, done once its pool has drained.
    await runner.stop().catch(() => {});
    await Promise.race([runner.promise.catch(() => {}), drained]);
  }

  /** Stops restarting, then stops every runner (one may still be draining) and waits for them. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#launching;
    await Promise.all([...this.#runners].map((supervised) => this.#stopRunner(supervised)));
  }
}
