import type { CheckpointStore, SkeinEngine, ThreadContext } from '@skein/core';
import { InvalidArgumentError, SkeinError } from '@skein/spec';
import type { Task } from 'graphile-worker';
import { databaseError } from './database-errors.js';
import { WorkerOptionError } from './errors/worker-option-error.js';
import { EventPublisher } from './event-publisher.js';
import { idempotencyKeyOf, type ToolCallScope } from './idempotency-keys.js';
import { encodeThreadJob, type ParsedJob, parseThreadJob, type ThreadJob } from './job-payload.js';
import {
  deferBehindEarlier,
  deferJob,
  deferralDelayMs,
  JobSetAside,
  makeLastAttempt,
  type TakenJob,
} from './queue-jobs.js';
import { type JobOutcome, runThreadJob } from './run-thread-job.js';
import { RunningThreads } from './running-threads.js';
import { parseSignalJob, SIGNAL_TASK, signalLockKey } from './signal-job.js';
import { cancelChannel, quoteIdentifier, THREAD_TASK } from './sql-names.js';
import { StaleJobReaper } from './stale-job-reaper.js';
import { SupervisedRunner } from './supervised-runner.js';
import { ThreadLocks } from './thread-lock.js';
import { WorkerClient, type WorkerClientOptions } from './worker-client.js';
import { FORWARDED_EVENTS, type ForwardedEventName } from './worker-event.js';
import { isWorkflowRegistered, registerWorkflows } from './workflow-registry.js';

export type WorkerOptions = WorkerClientOptions & {
  /**
   * The engine with the workflows and tools the queued threads use, and a durable store. Its
   * `owner` is this worker's id in the store's thread leases: one engine per worker.
   */
  readonly engine: SkeinEngine;
  /** The engine's store, stated again for clarity (must be the same object when given). */
  readonly store?: CheckpointStore;
  /**
   * Threads run at once by this process (1 to 1,000). Default 100: agent threads spend most of
   * their time waiting on models, and a waiting thread holds no database connection (the
   * process's thread locks share one), so a worker's connections do not grow with it.
   */
  readonly concurrency?: number;
  /** `maxSteps` of each run (default 1,000): a thread that needs more ends FAILED. */
  readonly maxSteps?: number;
  /** Which engine events go to subscribers; `false` sends none. Default all. */
  readonly events?: readonly ForwardedEventName[] | false;
  /** Stop gracefully on SIGTERM and SIGINT. Default true. */
  readonly handleSignals?: boolean;
  /** On stop, how long running threads may go on before they are handed back. Default 10 s. */
  readonly shutdownTimeoutMs?: number;
  /** How often dead workers' jobs are looked for. Default 1,000 ms. */
  readonly recoveryIntervalMs?: number;
  /** A job locked this long without its thread lock belongs to a dead worker. Default 2,000 ms. */
  readonly staleAfterMs?: number;
  /**
   * Called with each thread just before this worker runs it (newly built, or loaded from its
   * checkpoint), e.g. to attach what a thread object carries in memory only.
   */
  readonly prepareThread?: (thread: ThreadContext) => void;
  /** Called after each job, for logs and tests, once the queue records its outcome (a job put off is back in the queue). */
  readonly onJob?: (threadId: string, outcome: JobOutcome) => void;
};

/** Threads a worker runs at once unless told: an I/O-bound fleet's, see `concurrency`. */
const DEFAULT_CONCURRENCY = 100;

/** Outcomes of a job put off for later (set aside, not done): told once it is back in the queue. */
const PUT_OFF: ReadonlySet<JobOutcome['kind']> = new Set(['leased', 'stale-writer', 'behind']);

/**
 * Connections of the queue's pool: graphile-worker's job fetches and completions, the thread
 * locks' one, events, the reaper, and a thread waiting for another process to let go of it. None
 * is held while a thread runs, so it grows only a little with `concurrency`: four workers, each
 * with its store's pool (10 by default) and a LISTEN connection, stay within PostgreSQL's default
 * of 100 connections.
 */
function queuePoolSize(concurrency: number): number {
  return Math.min(concurrency, 6) + 4;
}

function integer(option: string, value: number | undefined, fallback: number, max: number): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new WorkerOptionError(option, value, `an integer from 1 to ${max}`);
  return n;
}

/** Engines of the workers running in this process: a lease owner runs one worker. */
const enginesInUse = new WeakSet<SkeinEngine>();

function checkEngine(options: WorkerOptions): WorkerOptions {
  if (!options.engine?.store)
    throw new WorkerOptionError(
      'engine',
      'an engine without a store',
      'an engine made with a durable `store` (threads move between processes through it)',
    );
  if (options.store && options.store !== options.engine.store)
    throw new WorkerOptionError('store', 'another store', "the engine's own store");
  // Two workers on one engine would be one lease owner: a thread taken over from one by the
  // other would not be fenced.
  if (enginesInUse.has(options.engine))
    throw new WorkerOptionError(
      'engine',
      'an engine another running worker uses',
      'an engine of its own for each worker (its `owner` is the worker id in thread leases)',
    );
  return options;
}

/**
 * Runs queued threads in this process: graphile-worker hands out jobs (woken by LISTEN/NOTIFY),
 * each job brings one thread to rest under its thread lock and lease, events go out over NOTIFY,
 * and dead workers' jobs are taken over. Rides out database outages: graphile-worker's runner is
 * started again when one kills it, and jobs that could not be recorded are freed by the reaper.
 * Also a `WorkerClient`, so it can enqueue, resume and cancel.
 */
export class SkeinWorker extends WorkerClient {
  readonly #engine: SkeinEngine;
  readonly #options: WorkerOptions;
  readonly #concurrency: number;
  readonly #maxSteps: number;
  readonly #shutdownTimeoutMs: number;
  readonly #staleAfterMs: number;
  readonly #running = new RunningThreads();
  readonly #locks: ThreadLocks;
  readonly #publisher: EventPublisher;
  readonly #reaper: StaleJobReaper;
  readonly #detach: (() => void)[] = [];
  #runner: SupervisedRunner | undefined;
  #stopping: Promise<void> | undefined;

  constructor(options: WorkerOptions) {
    // Checked before the pool opens, so bad options leave nothing to close.
    const concurrency = integer(
      'concurrency',
      checkEngine(options).concurrency,
      DEFAULT_CONCURRENCY,
      1_000,
    );
    super(options, queuePoolSize(concurrency));
    this.#options = options;
    this.#engine = options.engine;
    this.#concurrency = concurrency;
    this.#locks = new ThreadLocks(this.queue.pool, this.queue.schema);
    this.#maxSteps = integer('maxSteps', options.maxSteps, 1_000, Number.MAX_SAFE_INTEGER);
    this.#shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
    if (!Number.isFinite(this.#shutdownTimeoutMs) || this.#shutdownTimeoutMs < 0)
      throw new WorkerOptionError(
        'shutdownTimeoutMs',
        options.shutdownTimeoutMs,
        'milliseconds, 0 or more',
      );
    const recoveryIntervalMs = integer(
      'recoveryIntervalMs',
      options.recoveryIntervalMs,
      1_000,
      3_600_000,
    );
    this.#staleAfterMs = integer('staleAfterMs', options.staleAfterMs, 2_000, 3_600_000);
    this.#publisher = new EventPublisher(this.queue.pool, this.queue.schema, (error) =>
      this.queue.log('warning', `events not sent: ${String(error)}`),
    );
    this.#reaper = new StaleJobReaper({
      pool: this.queue.pool,
      graphileSchema: this.queue.graphileSchema,
      staleAfterMs: this.#staleAfterMs,
      intervalMs: recoveryIntervalMs,
      onError: (error) => this.queue.log('warning', `stale job sweep failed: ${String(error)}`),
    });
  }

  /** This worker's id: its engine's `owner` in the store's thread leases. */
  get workerId(): string {
    return this.#engine.owner;
  }

  /**
   * A key for a tool call that is the same when the node runs again after a crash (thread, node,
   * step, call position): pass it to the side effect so it can deduplicate. Call it from the
   * tool's `execute` with its context.
   */
  idempotencyKey(context: ToolCallScope): string {
    return idempotencyKeyOf(context);
  }

  /** Threads running in this process right now. */
  get runningThreads(): readonly string[] {
    return this.#running.ids();
  }

  /** @internal */
  protected override serves(workflowId: string): boolean {
    return this.#engine.workflows.has(workflowId);
  }

  #forwardEvents(): void {
    const names = this.#options.events === false ? [] : (this.#options.events ?? FORWARDED_EVENTS);
    const events = this.#engine.events;
    for (const name of names) {
      const listener = (data: { threadId?: string }): void => {
        const threadId = data.threadId;
        if (typeof threadId !== 'string') return;
        // A thread handed back at shutdown is not cancelled: its subscribers hear nothing of it.
        if (name === 'thread:cancelled' && this.#running.isHandedBack(threadId)) return;
        this.#publisher.publish(threadId, name, data);
      };
      events.on(name, listener);
      this.#detach.push(() => events.off(name, listener));
    }
  }

  async #requeue(job: ThreadJob): Promise<void> {
    await this.queue.pool.query(
      `select ${quoteIdentifier(this.queue.graphileSchema)}.add_job($1, $2::json, max_attempts => $3)`,
      [THREAD_TASK, encodeThreadJob(job), this.queue.maxAttempts],
    );
  }

  /**
   * The thread's wake as a job due at `at`: one per thread (a later wake replaces it), its time
   * counted from now on the database's clock, so workers whose clocks differ agree on it.
   */
  async #scheduleWake(threadId: string, at: number): Promise<void> {
    await this.queue.pool.query(
      `select ${quoteIdentifier(this.queue.graphileSchema)}.add_job($1, $2::json,
         run_at => now() + $3 * interval '1 millisecond', max_attempts => $4,
         job_key => $5, job_key_mode => 'replace')`,
      [
        THREAD_TASK,
        encodeThreadJob({ op: 'wake', threadId }),
        Math.max(0, at - Date.now()),
        this.queue.maxAttempts,
        `skein_wake:${threadId}`,
      ],
    );
  }

  /** An outside event: delivered through this worker's engine, claimed once per thread. */
  async #signal(payload: unknown): Promise<void> {
    const job = parseSignalJob(payload);
    // A job no worker could deliver fails for good rather than being retried.
    if (job instanceof InvalidArgumentError) {
      this.queue.log('warning', `signal job dropped: ${job.message}`);
      return;
    }
    // Held while it delivers: the reaper tells this live job from a dead worker's by it.
    const lock = await this.#locks.lock(signalLockKey(job.name));
    try {
      await this.#engine.signal(job.name, job.payload);
    } finally {
      await lock.release();
    }
  }

  async #run(parsed: Extract<ParsedJob, { job: ThreadJob }>, job: TakenJob, attempts: number) {
    return runThreadJob(
      {
        engine: this.#engine,
        pool: this.queue.pool,
        schema: this.queue.schema,
        maxSteps: this.#maxSteps,
        running: this.#running,
        locks: this.#locks,
        jobId: job.id,
        attempts,
        prepare: this.#options.prepareThread,
        publish: (threadId, event, data) => this.#publisher.publish(threadId, event, data),
        requeue: (next) => this.#requeue(next),
        workflowKnown: (workflowId) =>
          isWorkflowRegistered(this.queue.pool, this.queue.schema, workflowId),
        scheduleWake: (threadId, at) => this.#scheduleWake(threadId, at),
        // Someone else runs the thread now: look again later, without counting an attempt and
        // without deleting the job, which the other worker may hold by then.
        deferBehindEarlier: () =>
          deferBehindEarlier(this.queue.pool, this.queue.graphileSchema, job),
        setAside: () =>
          deferJob(
            this.queue.pool,
            this.queue.graphileSchema,
            job,
            deferralDelayMs(this.#staleAfterMs, parsed.deferrals),
            parsed.deferrals + 1,
          ).catch((error: unknown) =>
            this.queue.log(
              'warning',
              `job of thread ${parsed.job.threadId} not put back: ${String(error)}`,
            ),
          ),
      },
      parsed.job,
    );
  }

  /**
   * A job that can never run is failed once, for good: its subscribers hear why, and
   * graphile-worker records the error on its last attempt.
   */
  async #failForGood(
    job: TakenJob,
    payload: unknown,
    threadId: string | undefined,
    error: { code: string; message: string },
  ): Promise<never> {
    // A caller's message or answer for a thread that is not the caller's (CHECKPOINT_NOT_FOUND):
    // the thread's listeners are its owner's, who did nothing, so they hear nothing of it.
    if (threadId !== undefined && error.code !== 'CHECKPOINT_NOT_FOUND') {
      // A start that never built a thread ends it; a bad resume leaves the thread as it is.
      const start = (payload as { op?: unknown } | null)?.op === 'start';
      this.#publisher.publish(threadId, start ? 'thread:failed' : 'warning', {
        threadId,
        ...(start ? { status: 'FAILED' } : {}),
        ...(start ? { error } : error),
      });
    }
    await makeLastAttempt(this.queue.pool, this.queue.graphileSchema, job);
    throw new SkeinError(error.code, error.message);
  }

  /**
   * Migrates, listens for cancellations and starts taking jobs. Rejects (leaving nothing open)
   * with `WorkerDatabaseError` when the database cannot be reached.
   */
  async start(): Promise<this> {
    enginesInUse.add(this.#engine);
    this.#detach.push(() => enginesInUse.delete(this.#engine));
    try {
      await this.#start();
    } catch (error) {
      await this.stop().catch(() => {});
      throw databaseError(error, 'start the worker');
    }
    return this;
  }

  async #start(): Promise<void> {
    await this.migrate();
    await registerWorkflows(
      this.queue.pool,
      this.queue.schema,
      this.#engine.workflows.list().map((w) => w.id),
    );
    await this.listener.listen(cancelChannel(this.queue.schema), (threadId) => {
      this.#running.cancel(threadId);
    });
    this.#forwardEvents();
    const task: Task = async (payload, helpers) => {
      const job = helpers.job as TakenJob;
      const parsed = parseThreadJob(payload);
      const threadId = parsed.invalid ? parsed.threadId : parsed.job.threadId;
      const outcome: JobOutcome = parsed.invalid
        ? { kind: 'invalid', error: codeAndMessage(parsed.invalid) }
        : await this.#run(parsed, job, helpers.job.attempts);
      // Told once the queue says the same: a job put off is told after it was put back.
      const told = () => {
        if (threadId !== undefined) this.#options.onJob?.(threadId, outcome);
      };
      const putOff = PUT_OFF.has(outcome.kind);
      if (!putOff) told();
      if (outcome.kind === 'invalid')
        await this.#failForGood(job, payload, threadId, outcome.error);
      if (putOff && !parsed.invalid) {
        // Put off by `#run` (the job is not deleted: if the other run dies, this job goes on with
        // the thread); graphile-worker's failure update unlocks it.
        told();
        throw new JobSetAside(parsed.job.threadId, `${outcome.kind}; looked at again later`);
      }
    };
    this.#runner = new SupervisedRunner({
      pool: this.queue.pool,
      graphileSchema: this.queue.graphileSchema,
      logger: this.queue.logger,
      concurrency: this.#concurrency,
      shutdownTimeoutMs: this.#shutdownTimeoutMs,
      taskList: { [THREAD_TASK]: task, [SIGNAL_TASK]: (payload) => this.#signal(payload) },
      log: this.queue.log,
      onBreakingMigration: () => {
        this.queue.log(
          'warning',
          'graphile-worker stopped for a breaking migration of its schema; stopping the Skein worker',
        );
        void this.stop();
      },
    });
    await this.#runner.start();
    this.#reaper.start();
    if (this.#options.handleSignals ?? true) {
      const onSignal = (): void => {
        void this.stop();
      };
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      this.#detach.push(() => {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
      });
    }
  }

  /**
   * Stops taking jobs, lets running threads go on for `shutdownTimeoutMs`, then hands the rest
   * back: each is stopped between nodes (the node in flight is undone, as on a crash) and queued
   * again for another worker. Resolves once every connection is closed.
   */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      const timer = setTimeout(() => this.#running.handBackAll(), this.#shutdownTimeoutMs);
      try {
        await this.#runner?.stop();
      } finally {
        clearTimeout(timer);
      }
      await this.#reaper.stop();
      await this.#locks.close();
      await this.#publisher.drain();
      for (const detach of this.#detach.splice(0)) detach();
      await this.close();
    })();
    return this.#stopping;
  }
}

function codeAndMessage(error: SkeinError): { code: string; message: string } {
  return { code: error.code, message: error.message };
}

/** Creates a worker and starts it (see `SkeinWorker`). */
export function createWorker(options: WorkerOptions): Promise<SkeinWorker> {
  return new SkeinWorker(options).start();
}
