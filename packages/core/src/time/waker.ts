import { SkeinError } from '@skein/spec';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { WarningEvent } from '../events/event-map.js';
import type { ResumeWith, StartedRun, ThreadResult } from '../run/thread-executor.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { wakeInput, wakeOf } from '../thread/wake-of.js';
import { WakeTimers } from './wake-timers.js';

/** What waking threads needs from the engine. */
/** How `wake` runs a thread it wakes. */
export interface WakeOptions {
  readonly signal?: AbortSignal;
  readonly maxSteps?: number;
  /** End the wait now, due or not, with no input (a cancelled job ends a wait this way). */
  readonly early?: boolean;
}

export interface WakeHost {
  readonly store: CheckpointStore;
  readonly now: () => number;
  /** The stored thread rebuilt from its latest checkpoint. */
  load(threadId: string): Promise<ThreadContext | undefined>;
  /** Claims the thread's wait (the checkpoint claim of `claimResume`) and runs it on. */
  start(thread: ThreadContext, resume: ResumeWith, options?: WakeOptions): Promise<StartedRun>;
  warn(warning: WarningEvent): void;
}

/** A claim someone else made first: another engine, another timer, a resume or a signal. */
export function lostClaim(error: unknown): boolean {
  return SkeinError.hasCode(error, 'RESUME_CONFLICT') || SkeinError.hasCode(error, 'THREAD_LEASED');
}

/**
 * Wakes threads whose time has come: a SLEEP's, or a wait's deadline. The store is the record
 * of every wake; this engine also keeps a timer for the ones it knows of (see `WakeTimers`). A
 * wake is claimed like a resume — a checkpoint continuing the waiting one — so of every engine,
 * timer and call that tries, exactly one wakes the thread.
 */
export class Waker {
  readonly #host: WakeHost;
  readonly #timers: WakeTimers;

  constructor(host: WakeHost) {
    this.#host = host;
    this.#timers = new WakeTimers(host.now, (ids) => {
      for (const id of ids) void this.#fireQuietly(id);
    });
  }

  /** Wakes (in-process timers) this engine will fire by itself. */
  get scheduled(): number {
    return this.#timers.size;
  }

  /**
   * Reads every wake from the store: fires those due now (their runs returned, going on) and
   * schedules the rest on this engine's timers.
   */
  async wakeDue(): Promise<StartedRun[]> {
    const now = this.#host.now();
    const started: StartedRun[] = [];
    for (const wake of await this.#host.store.listWakes()) {
      if (wake.at > now) {
        this.#timers.set(wake.threadId, wake.at);
        continue;
      }
      const run = await this.#fireQuietly(wake.threadId);
      if (run) started.push(run);
    }
    return started;
  }

  /** After a run: a thread that now waits with a wake gets a timer; any other loses its own. */
  track(thread: ThreadContext, result: ThreadResult): void {
    if (result.status !== 'PAUSED' && result.status !== 'WAITING') {
      this.#timers.delete(thread.threadId);
      return;
    }
    const wake = wakeOf(thread.state);
    if (wake) this.#timers.set(wake.threadId, wake.at);
  }

  close(): void {
    this.#timers.clear();
  }

  /**
   * Fires one thread's wake if it is (still) due; undefined when there is nothing to do here.
   * Given a loaded thread, wakes that one (a worker's, prepared). `early` ends the wait now, due
   * or not, with no input (what a cancelled job does, its signal already aborted).
   */
  async fire(
    target: string | ThreadContext,
    options: WakeOptions = {},
  ): Promise<StartedRun | undefined> {
    const thread = typeof target === 'string' ? await this.#host.load(target) : target;
    const wake = thread && wakeOf(thread.state);
    if (!thread || (!wake && !(options.early && thread.status === 'WAITING'))) return undefined;
    if (wake && !options.early && wake.at > this.#host.now()) {
      // Woken early (a timer chain link, a clock that moved back): wait on.
      this.#timers.set(thread.threadId, wake.at);
      return undefined;
    }
    const resume: ResumeWith =
      wake && !options.early
        ? { ...wakeInput(thread.state, wake), wake: true }
        : { input: null, wake: true };
    try {
      return await this.#host.start(thread, resume, options);
    } catch (error) {
      if (lostClaim(error)) return undefined;
      throw error;
    }
  }

  /** `fire`, with a failure reported as a `warning` rather than thrown (timers have no caller). */
  async #fireQuietly(threadId: string): Promise<StartedRun | undefined> {
    try {
      const run = await this.fire(threadId);
      // A run that fails is the thread's own failure, recorded in the store and its events.
      run?.result.catch(() => undefined);
      return run;
    } catch (error) {
      this.#host.warn({
        threadId,
        code: 'WAKE_FAILED',
        message: `Could not wake thread ${threadId}: ${error instanceof Error ? error.message : String(error)}`,
        ...(SkeinError.isInstance(error) ? { details: { code: error.code } } : {}),
      });
      return undefined;
    }
  }
}
