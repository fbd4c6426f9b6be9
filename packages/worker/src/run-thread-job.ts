import type { SkeinEngine, ThreadContext, ThreadResult } from '@skein/core';
import { SkeinError } from '@skein/spec';
import type pg from 'pg';
import type { ThreadJob } from './job-payload.js';
import type { RunningThreads } from './running-threads.js';
import { quoteIdentifier } from './sql-names.js';
import { lockThread, type ThreadLock } from './thread-lock.js';

export interface JobContext {
  readonly engine: SkeinEngine;
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly maxSteps: number;
  readonly running: RunningThreads;
  /** graphile-worker's id of the job (stable across its retries) and how often it was taken. */
  readonly jobId: string;
  readonly attempts: number;
  /** Sends an event to the thread's subscribers (for what the engine itself does not emit). */
  readonly publish: (threadId: string, event: string, data: object) => void;
  /** Called with each thread before it runs (built or loaded), e.g. to add dynamic tools. */
  readonly prepare: ((thread: ThreadContext) => void) | undefined;
  /** Queues another job for the thread (a handed-back thread goes on elsewhere). */
  readonly requeue: (job: ThreadJob) => Promise<void>;
}

/** What the job did, for tests and logs. */
export type JobOutcome =
  | {
      readonly kind: 'ran';
      /** Where the run began: a new thread, a stored checkpoint (taken over or handed back), a pause. */
      readonly from: 'new' | 'checkpoint' | 'pause';
      readonly result: ThreadResult;
    }
  | { readonly kind: 'handed-back' }
  | { readonly kind: 'idle'; readonly reason: string }
  | { readonly kind: 'stale-writer' };

async function loadOrUndefined(
  engine: SkeinEngine,
  threadId: string,
): Promise<ThreadContext | undefined> {
  try {
    return await engine.loadThread(threadId);
  } catch (error) {
    if (SkeinError.hasCode(error, 'CHECKPOINT_NOT_FOUND')) return undefined;
    throw error;
  }
}

/**
 * True when this resume job should feed its input to the thread's current pause. The first time
 * the job sees the thread paused it records that checkpoint; a retry (the worker died mid-run)
 * feeds the input only if the thread is still at that same pause, never to a later one.
 */
async function claimResume(context: JobContext, thread: ThreadContext): Promise<boolean> {
  const s = quoteIdentifier(context.schema);
  const checkpoint = thread.lastCheckpointId ?? null;
  const { rows } = await context.pool.query<{ checkpoint_id: string | null }>(
    `insert into ${s}.applied_resumes (job_id, thread_id, checkpoint_id) values ($1, $2, $3)
     on conflict (job_id) do update set job_id = excluded.job_id
     returning checkpoint_id`,
    [context.jobId, thread.threadId, checkpoint],
  );
  return rows[0]?.checkpoint_id === checkpoint;
}

/**
 * How a run ended when the store refused a checkpoint for a reason other than a stale writer (an
 * outage): the thread is not done, the job is retried.
 */
const SAVE_FAILED = 'CHECKPOINT_SAVE_FAILED';

/** Ended for good: completed, or failed by its own nodes (not by the store). */
function isTerminal(thread: ThreadContext): boolean {
  return (
    thread.status === 'COMPLETED' ||
    (thread.status === 'FAILED' && thread.state.error?.code !== SAVE_FAILED)
  );
}

/** Says again how a thread ended, for subscribers of a job whose first run died after the end. */
function republishEnd(context: JobContext, thread: ThreadContext): void {
  const status = thread.status;
  const event =
    status === 'COMPLETED'
      ? 'thread:completed'
      : status === 'FAILED'
        ? 'thread:failed'
        : 'thread:cancelled';
  const error = thread.state.error;
  context.publish(thread.threadId, event, {
    threadId: thread.threadId,
    status,
    steps: thread.state.step,
    ...(status === 'COMPLETED' ? { output: thread.state.output } : {}),
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
  });
}

/**
 * Brings one thread to rest under its lock: builds it or loads its last checkpoint, then runs,
 * resumes or cancels it as the job and the stored state say. A stale writer (another worker took
 * the thread over) stops quietly; store outages reject, and graphile-worker retries the job.
 */
export async function runThreadJob(context: JobContext, job: ThreadJob): Promise<JobOutcome> {
  const { engine } = context;
  const { threadId } = job;
  // Registered before the lock is taken (and the cancellation read with it), so a cancellation
  // committed after that read still reaches the controller through NOTIFY.
  const entry = context.running.add(threadId);
  let lock: ThreadLock;
  try {
    lock = await lockThread(context.pool, context.schema, threadId);
  } catch (error) {
    context.running.remove(threadId, entry);
    throw error;
  }
  try {
    // Stopped while waiting for the lock: the job goes back to the queue untouched.
    if (entry.handback) {
      await context.requeue(job);
      return { kind: 'handed-back' };
    }
    const cancelled = lock.cancelled || entry.controller.signal.aborted;
    if (cancelled) entry.controller.abort();
    const options = { signal: entry.controller.signal, maxSteps: context.maxSteps };
    const run = (thread: ThreadContext): ThreadContext => {
      context.prepare?.(thread);
      return thread;
    };
    let thread = await loadOrUndefined(engine, threadId);
    let result: ThreadResult;
    let from: 'new' | 'checkpoint' | 'pause' = 'checkpoint';
    if (!thread) {
      from = 'new';
      if (job.op !== 'start') return { kind: 'idle', reason: 'the thread has not started yet' };
      thread = engine.createThread(job.workflowId, {
        threadId,
        ...(job.input === undefined ? {} : { input: job.input }),
        ...(job.variables ? { variables: job.variables } : {}),
        ...(job.messages ? { messages: job.messages } : {}),
      });
      result = await engine.execute(run(thread), options);
    } else if (isTerminal(thread) || (thread.status === 'CANCELLED' && cancelled)) {
      if (job.op === 'resume')
        context.publish(threadId, 'warning', {
          threadId,
          code: 'WORKER_RESUME_DROPPED',
          message: `Resume input for thread "${threadId}" dropped: the thread is ${thread.status}`,
        });
      if (context.attempts > 1) republishEnd(context, thread);
      return { kind: 'idle', reason: `the thread is ${thread.status}` };
    } else if (thread.status === 'PAUSED') {
      from = 'pause';
      if (cancelled) result = await engine.resume(thread, null, options);
      else if (job.op === 'resume' && (await claimResume(context, thread)))
        result = await engine.resume(run(thread), job.input, options);
      else return { kind: 'idle', reason: 'the thread waits for input' };
    } else {
      if (job.op === 'resume' && context.attempts === 1)
        context.publish(threadId, 'warning', {
          threadId,
          code: 'WORKER_RESUME_DROPPED',
          message: `Resume input for thread "${threadId}" dropped: the thread was not paused`,
        });
      result = await engine.execute(run(thread), options);
    }
    if (result.error?.code === SAVE_FAILED) {
      // The store failed: graphile-worker retries the job with backoff, and the retry goes on from
      // the last checkpoint that was stored. A resume input is claimed again by the retry.
      if (job.op === 'resume')
        await context.pool
          .query(
            `delete from ${quoteIdentifier(context.schema)}.applied_resumes where job_id = $1`,
            [context.jobId],
          )
          .catch(() => {});
      throw result.error;
    }
    if (result.status === 'CANCELLED' && entry.handback) {
      await context.requeue({ op: 'advance', threadId });
      return { kind: 'handed-back' };
    }
    return { kind: 'ran', from, result };
  } catch (error) {
    if (SkeinError.hasCode(error, 'CHECKPOINT_CONFLICT')) return { kind: 'stale-writer' };
    throw error;
  } finally {
    context.running.remove(threadId, entry);
    await lock.release();
  }
}
