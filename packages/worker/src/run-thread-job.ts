import {
  busyReason,
  type SendResult,
  type SkeinEngine,
  type StartedRun,
  type ThreadContext,
  type ThreadResult,
  wakeOf,
} from '@skein/core';
import { CheckpointNotFoundError, SkeinError } from '@skein/spec';
import type pg from 'pg';
import type { ThreadJob } from './job-payload.js';
import type { RunningThread, RunningThreads } from './running-threads.js';
import { quoteIdentifier } from './sql-names.js';
import type { ThreadLock, ThreadLocks } from './thread-lock.js';

export interface JobContext {
  readonly engine: SkeinEngine;
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly maxSteps: number;
  readonly running: RunningThreads;
  /** This process's thread locks (one connection for all of them). */
  readonly locks: ThreadLocks;
  /** graphile-worker's id of the job (stable across its retries) and how often it was taken. */
  readonly jobId: string;
  readonly attempts: number;
  /** Sends an event to the thread's subscribers (for what the engine itself does not emit). */
  readonly publish: (threadId: string, event: string, data: object) => void;
  /** Called with each thread before it runs (built or loaded), e.g. to add dynamic tools. */
  readonly prepare: ((thread: ThreadContext) => void) | undefined;
  /** Queues another job for the thread (a handed-back thread goes on elsewhere). */
  readonly requeue: (job: ThreadJob) => Promise<void>;
  /** Whether any worker of the fleet has registered the workflow (see `workflow-registry`). */
  readonly workflowKnown: (workflowId: string) => Promise<boolean>;
  /** Queues the thread's wake job for `at` (epoch ms): whichever worker is up then wakes it. */
  readonly scheduleWake: (threadId: string, at: number) => Promise<void>;
  /**
   * Puts the job off without counting the attempt (see `deferJob`); called, thread lock held, when
   * a live run elsewhere holds the thread (`leased`, `stale-writer`).
   */
  readonly setAside: () => Promise<void>;
  /**
   * For a send job: puts it off behind an earlier job of its sender's queue that is still to run
   * (see `deferBehindEarlier`); false, changing nothing, when none is.
   */
  readonly deferBehindEarlier: () => Promise<boolean>;
}

/** What the job did, for tests and logs. */
export type JobOutcome =
  | {
      readonly kind: 'ran';
      /** Where the run began: a new thread, a stored checkpoint (taken over or handed back), a pause. */
      readonly from: 'new' | 'checkpoint' | 'pause';
      readonly result: ThreadResult;
    }
  /**
   * A send job's message waits in the thread's inbox (decision 0036): another worker runs the
   * thread (and takes it), or the thread waits (a wake, an event, tool approvals).
   */
  | { readonly kind: 'posted'; readonly seq: number; readonly messageId: string }
  /** A send job with `ifBusy: 'reject'` met a busy thread (`THREAD_BUSY`): nothing was stored. */
  | {
      readonly kind: 'rejected';
      readonly error: { readonly code: string; readonly message: string };
    }
  | { readonly kind: 'handed-back' }
  | { readonly kind: 'idle'; readonly reason: string }
  /**
   * Another worker took the thread over while this one ran it, and the store refused this one's
   * checkpoint (`CHECKPOINT_CONFLICT`, or `THREAD_LEASED`: its lease was taken): it stopped,
   * recording nothing. The job, if still this worker's, is looked at again later.
   */
  | { readonly kind: 'stale-writer' }
  /**
   * A live run holds the thread (its lease is another worker's, or this process runs it already):
   * nothing ran, and the job is looked at again later without counting an attempt.
   */
  | { readonly kind: 'leased' }
  /**
   * A send job whose sender's earlier message is still to be sent (its job set aside, or to be
   * retried): nothing ran, and the job goes after that one, without counting an attempt.
   */
  | { readonly kind: 'behind' }
  /** The job can never run (see `parseThreadJob`): failed once, for good. */
  | {
      readonly kind: 'invalid';
      readonly error: { readonly code: string; readonly message: string };
    };

/**
 * True when this resume job should feed its input to the thread's current pause. The first time
 * the job sees the thread paused it records that checkpoint; a retry (the worker died mid-run)
 * feeds the input only if the thread is still at that same pause, never to a later one.
 */
async function claimResume(
  context: JobContext,
  threadId: string,
  thread: ThreadContext | undefined,
): Promise<boolean> {
  const s = quoteIdentifier(context.schema);
  const checkpoint = thread?.lastCheckpointId ?? null;
  const { rows } = await context.pool.query<{ checkpoint_id: string | null }>(
    `insert into ${s}.applied_resumes (job_id, thread_id, checkpoint_id) values ($1, $2, $3)
     on conflict (job_id) do update set job_id = excluded.job_id
     returning checkpoint_id`,
    [context.jobId, threadId, checkpoint],
  );
  return rows[0]?.checkpoint_id === checkpoint;
}

/** The id a send job's message has in the thread's inbox: the same on every retry of the job. */
function messageIdOf(context: JobContext, job: Extract<ThreadJob, { op: 'send' }>): string {
  return job.messageId ?? `job:${context.jobId}`;
}

/** Busy to a message (it waits in the inbox): a turn runs, or the thread waits for the engine or approvals. */
function isBusy(thread: ThreadContext): boolean {
  return busyReason(thread) !== undefined;
}

/** What a send resolved with, as the job's outcome: the turn it ran, or its message posted. */
type Sent = ThreadResult | Extract<JobOutcome, { kind: 'posted' | 'rejected' }>;

/** `engine.send`'s answer, or a `reject` refused: a posted message, or the turn that took it. */
async function sendThrough(
  context: JobContext,
  job: Extract<ThreadJob, { op: 'send' }>,
  options: { signal?: AbortSignal; maxSteps: number },
): Promise<Sent> {
  const { threadId } = job;
  // A caller's message goes through its view: a new thread is the caller's.
  const sender =
    job.principal === undefined ? context.engine : context.engine.forPrincipal(job.principal);
  let result: SendResult;
  try {
    ({ result } = await sender.send(threadId, job.message, {
      ...options,
      messageId: messageIdOf(context, job),
      ...(job.ifBusy === undefined ? {} : { ifBusy: job.ifBusy }),
      ...(job.workflowId === undefined ? {} : { workflowId: job.workflowId }),
    }));
  } catch (error) {
    if (!SkeinError.hasCode(error, 'THREAD_BUSY')) throw error;
    const refusal = { code: error.code, message: error.message };
    context.publish(threadId, 'warning', { threadId, ...refusal });
    return { kind: 'rejected', error: refusal };
  }
  // The turns this engine runs after it (messages others posted meanwhile) end before the job.
  await context.engine.idle(threadId);
  return 'posted' in result
    ? { kind: 'posted', seq: result.posted.seq, messageId: result.posted.messageId }
    : result;
}

/**
 * A send job's message for a thread that is busy (it runs on some worker, waits, or waits for
 * approvals): posted to its inbox without the thread's lock, which its runner holds, so a
 * `steer` or `interrupt` reaches the running turn. Undefined when the thread is not busy: the
 * job then takes the lock and runs the turn (`sendOnce`).
 */
async function postIfBusy(
  context: JobContext,
  job: Extract<ThreadJob, { op: 'send' }>,
): Promise<JobOutcome | undefined> {
  const thread = await context.engine.getThread(job.threadId);
  if (!thread || !isBusy(thread)) return undefined;
  if (job.principal !== undefined && thread.state.principal !== job.principal)
    return invalid(new CheckpointNotFoundError(job.threadId));
  const sent = await sendThrough(context, job, { maxSteps: context.maxSteps });
  // The thread came to rest meanwhile, and this engine ran the turn that took the message.
  return 'kind' in sent ? sent : { kind: 'ran', from: 'checkpoint', result: sent };
}

/**
 * Sends a send job's message once, under the job's message id: into an existing thread through
 * its inbox (a retry posts nothing more, and a message taken already is not taken again); a new
 * thread is made with it, its first message keeping the id, so a retry finds it made the thread.
 * A thread another run holds in this process is `leased`.
 */
async function sendOnce(
  context: JobContext,
  entry: RunningThread,
  job: Extract<ThreadJob, { op: 'send' }>,
  options: { signal: AbortSignal; maxSteps: number },
): Promise<Sent | 'leased'> {
  const { threadId } = job;
  if (!context.running.begin(threadId, entry) || context.engine.isRunning(threadId))
    return 'leased';
  try {
    return await sendThrough(context, job, options);
  } catch (error) {
    if (isHeldElsewhere(error)) return 'leased';
    throw error;
  }
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

/** Another live run holds the thread: its lease, or (for a resume) the pause it waited at. */
function isHeldElsewhere(error: unknown): boolean {
  return SkeinError.hasCode(error, 'THREAD_LEASED') || SkeinError.hasCode(error, 'RESUME_CONFLICT');
}

/** This run lost the thread to another worker: the store refused its checkpoint. */
function isStaleWriter(error: unknown): boolean {
  return (
    SkeinError.hasCode(error, 'CHECKPOINT_CONFLICT') || SkeinError.hasCode(error, 'THREAD_LEASED')
  );
}

function invalid(error: unknown): JobOutcome {
  return {
    kind: 'invalid',
    error: SkeinError.isInstance(error)
      ? { code: error.code, message: error.message }
      : { code: 'INVALID_ARGUMENT', message: String(error) },
  };
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
 * Takes the thread and runs it through one of the engine's entries (`execute`, `claimResume`),
 * so the messages posted to its inbox meanwhile are taken by the turns after, before the job lets
 * go of the thread (`engine.idle`). `leased` when a live run holds it (another worker's lease,
 * or a job of this process that runs it already), before anything ran.
 */
async function begin(
  context: JobContext,
  entry: RunningThread,
  threadId: string,
  /** Undefined: nothing ran (a wake another engine claimed first, or not due by its clock). */
  start: () => Promise<StartedRun | ThreadResult | undefined>,
): Promise<ThreadResult | 'leased'> {
  const { engine } = context;
  if (!context.running.begin(threadId, entry) || engine.isRunning(threadId)) return 'leased';
  // `execute` rejects with the run's own errors too: a refusal before any event is a lease
  // another run holds, one after is this run losing the thread (a stale writer).
  let ran = false;
  const unsubscribe = engine.subscribe(threadId, () => {
    ran = true;
  });
  let result: ThreadResult;
  try {
    const started = await start();
    if (started === undefined) return 'leased';
    result = 'result' in started ? await started.result : started;
  } catch (error) {
    if (!ran && isHeldElsewhere(error)) return 'leased';
    throw error;
  } finally {
    unsubscribe();
  }
  await engine.idle(threadId);
  return result;
}

/** A new thread the engine would not build: wrong for every worker, unless only this one lacks its workflow. */
async function unbuildable(
  context: JobContext,
  job: Extract<ThreadJob, { op: 'start' }>,
  error: unknown,
): Promise<JobOutcome> {
  // Another worker of the fleet has the workflow: retried, in case that one takes the job.
  if (
    SkeinError.hasCode(error, 'WORKFLOW_NOT_FOUND') &&
    (await context.workflowKnown(job.workflowId))
  )
    throw error;
  return invalid(error);
}

/**
 * Brings one thread to rest under its lock: builds it or loads its last checkpoint, then runs,
 * resumes or cancels it as the job and the stored state say. A live run elsewhere (`leased`) or a
 * stale writer (`stale-writer`) stops without recording anything; a job that can never run is
 * `invalid`; store outages reject, and graphile-worker retries the job.
 */
export async function runThreadJob(context: JobContext, job: ThreadJob): Promise<JobOutcome> {
  const { threadId } = job;
  // A message for a busy thread is posted without the lock its runner holds — in its sender's
  // order, so never before an earlier message of the sender that is still to be sent.
  if (job.op === 'send') {
    if (await context.deferBehindEarlier()) return { kind: 'behind' };
    const posted = await postIfBusy(context, job);
    if (posted) return posted;
  }
  // Registered before the lock is taken (and the cancellation read with it), so a cancellation
  // committed after that read still reaches the controller through NOTIFY.
  const entry = context.running.add(threadId);
  let lock: ThreadLock;
  try {
    lock = await context.locks.lock(threadId);
  } catch (error) {
    context.running.remove(threadId, entry);
    throw error;
  }
  try {
    const outcome = await runLocked(context, job, entry, lock);
    // Set aside while the thread lock is still held: from then on the job is not due, so the
    // reaper, which takes a due job without its thread lock for a dead worker's, leaves it alone
    // until graphile-worker's failure update has unlocked it.
    if (outcome.kind === 'leased' || outcome.kind === 'stale-writer') await context.setAside();
    return outcome;
  } finally {
    context.running.remove(threadId, entry);
    await lock.release();
  }
}

/** `runThreadJob` once the thread's lock is held. */
async function runLocked(
  context: JobContext,
  job: ThreadJob,
  entry: RunningThread,
  lock: ThreadLock,
): Promise<JobOutcome> {
  const { engine } = context;
  const { threadId } = job;
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
    const execute = (thread: ThreadContext) => () =>
      engine.run(run(thread), options).then(({ result }) => result);
    let thread = await engine.getThread(threadId);
    // A caller's message or answer for a thread of another principal (or of none): to that
    // caller the thread does not exist, and nothing about it changes. It can never run.
    if (
      (job.op === 'send' || job.op === 'resume') &&
      job.principal !== undefined &&
      thread !== undefined &&
      thread.state.principal !== job.principal
    )
      return invalid(new CheckpointNotFoundError(threadId));
    let result: ThreadResult | 'leased' | undefined;
    let from: 'new' | 'checkpoint' | 'pause' = 'checkpoint';
    if (job.op === 'send' && !cancelled) {
      const sent = await sendOnce(context, entry, job, options);
      if (sent !== 'leased' && 'kind' in sent) return sent;
      result = sent;
      from = !thread ? 'new' : thread.status === 'PAUSED' ? 'pause' : 'checkpoint';
    }
    if (result !== undefined) {
      // Sent above.
    } else if (!thread) {
      from = 'new';
      if (job.op !== 'start') return { kind: 'idle', reason: 'the thread has not started yet' };
      try {
        thread = engine.createThread(job.workflowId, {
          threadId,
          ...(job.principal === undefined ? {} : { principal: job.principal }),
          ...(job.input === undefined ? {} : { input: job.input }),
          ...(job.variables ? { variables: job.variables } : {}),
          ...(job.messages ? { messages: job.messages } : {}),
        });
      } catch (error) {
        return await unbuildable(context, job, error);
      }
      result = await begin(context, entry, threadId, execute(thread));
    } else if (isTerminal(thread) || (thread.status === 'CANCELLED' && cancelled)) {
      if (job.op === 'resume')
        context.publish(threadId, 'warning', {
          threadId,
          code: 'WORKER_RESUME_DROPPED',
          message: `Resume input for thread "${threadId}" dropped: the thread is ${thread.status}`,
        });
      if (context.attempts > 1) republishEnd(context, thread);
      return { kind: 'idle', reason: `the thread is ${thread.status}` };
    } else if (thread.status === 'PAUSED' || thread.status === 'WAITING') {
      from = 'pause';
      const paused = thread;
      const wake = wakeOf(paused.state);
      if (cancelled)
        result = await begin(context, entry, threadId, () =>
          // A cancelled job ends a wait now, under its (aborted) signal.
          paused.status === 'WAITING'
            ? engine.wake(paused, { ...options, early: true })
            : engine.claimResume(paused, null, options),
        );
      else if (job.op === 'wake') {
        if (!wake) return { kind: 'idle', reason: 'the thread has nothing to wake' };
        // This worker's clock runs behind the one that set the job: ask again at the time.
        if (wake.at > Date.now()) {
          await context.scheduleWake(threadId, wake.at);
          return { kind: 'idle', reason: 'its wake is not due yet' };
        }
        // Claimed like a resume: of every worker and engine that tries, one wakes it; the
        // thread as the job prepared it, under the job's signal, so a cancel reaches the run.
        result = await begin(context, entry, threadId, () => engine.wake(run(paused), options));
      } else if (job.op === 'resume' && (await claimResume(context, threadId, thread))) {
        try {
          result = await begin(context, entry, threadId, () =>
            engine.claimResume(run(paused), job.input, options),
          );
        } catch (error) {
          // The input cannot be stored with the pause (it is not JSON a store can hold).
          if (SkeinError.hasCode(error, 'RESUME_INPUT_INVALID')) return invalid(error);
          throw error;
        }
      } else
        return {
          kind: 'idle',
          reason: paused.status === 'WAITING' ? 'the thread waits' : 'the thread waits for input',
        };
    } else {
      if (job.op === 'resume' && context.attempts === 1)
        context.publish(threadId, 'warning', {
          threadId,
          code: 'WORKER_RESUME_DROPPED',
          message: `Resume input for thread "${threadId}" dropped: the thread was not paused`,
        });
      result = await begin(context, entry, threadId, execute(thread));
    }
    if (result === 'leased') return { kind: 'leased' };
    if (result.error?.code === SAVE_FAILED) {
      // The store failed: graphile-worker retries the job with backoff, and the retry goes on from
      // the last checkpoint that was stored. A resume input is claimed again by the retry.
      // (A send keeps its claim: its message may be stored already, and is never sent twice.)
      if (job.op === 'resume')
        await context.pool
          .query(
            `delete from ${quoteIdentifier(context.schema)}.applied_resumes where job_id = $1`,
            [context.jobId],
          )
          .catch(() => {});
      throw result.error;
    }
    // A thread that now sleeps or waits with a deadline: its wake is a job, so a worker that is
    // up at that time wakes it even if this one is gone.
    // (As stored: the engine may have run turns after this one, for messages posted meanwhile.)
    const latest = (await engine.getThread(threadId)) ?? thread;
    if (latest && (latest.status === 'PAUSED' || latest.status === 'WAITING')) {
      const next = wakeOf(latest.state);
      if (next) await context.scheduleWake(threadId, next.at);
    }
    if (result.status === 'CANCELLED' && entry.handback) {
      await context.requeue({ op: 'advance', threadId });
      return { kind: 'handed-back' };
    }
    return { kind: 'ran', from, result };
  } catch (error) {
    if (isStaleWriter(error)) return { kind: 'stale-writer' };
    throw error;
  }
}
