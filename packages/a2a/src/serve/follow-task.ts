import type { StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { endOf, type StreamIds, statusUpdate } from './stream-responses.js';
import { hasStopped } from './thread-tasks.js';

/**
 * How often a followed task is read from the store: every `intervalMs` at first, then half as
 * long again each time nothing changed, up to `maxIntervalMs`; back to `intervalMs` on a change.
 */
export interface FollowSchedule {
  readonly intervalMs: number;
  readonly maxIntervalMs: number;
}

export const DEFAULT_FOLLOW_INTERVAL_MS = 1000;
/** How much longer than the first the longest wait between two reads is. */
const MAX_INTERVAL_FACTOR = 5;

export function followSchedule(intervalMs = DEFAULT_FOLLOW_INTERVAL_MS): FollowSchedule {
  return { intervalMs, maxIntervalMs: intervalMs * MAX_INTERVAL_FACTOR };
}

/** Where a followed task comes from and goes to: the store, and the subscriber's stream. */
export interface FollowSink {
  /** The task as the store has it now (its status and artifacts: its history is not sent). */
  read(): Promise<Task>;
  send(response: StreamResponse): void;
  /** The task stopped (its end was sent): the stream ends. */
  end(): void;
  /** The task could not be read: the stream ends with `error`. */
  fail(error: unknown): void;
}

/**
 * What a subscriber of one task (`SubscribeToTask`) hears, wherever the task's turn runs. Events
 * of a run in this process are sent at once (`heard`). Besides, the task is read from the store,
 * which every process shares, now and then (and at once on `check`): a run this process does
 * not hear — another process's, whoever started it — shows there. A state that differs from the
 * last one sent is sent as a status update; a stop (completed, failed, canceled, rejected,
 * input-required) ends the stream with the task's artifacts and status. A state already sent is
 * not sent again.
 *
 * Its timer is the global `setTimeout` at the time of each wait (fake timers drive it in tests),
 * unref'd so that a subscription does not keep the process alive; `stop` clears it.
 */
export class TaskFollow {
  readonly #ids: StreamIds;
  readonly #sink: FollowSink;
  readonly #schedule: FollowSchedule;
  /** The state the subscriber last heard (undefined: none yet). */
  #last: TaskState | undefined;
  /**
   * How many events of this process were heard: a read begun before the latest one may show the
   * task as it was before that event, and would send the subscriber back in time.
   */
  #heard = 0;
  #wait: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Reads the store on its timer (after `begin`); before, only on `check`. */
  #polling = false;
  #reading = false;
  /** A check asked for while a read was under way: read again once it is done. */
  #again = false;
  #over = false;

  constructor(ids: StreamIds, sink: FollowSink, schedule: FollowSchedule) {
    this.#ids = ids;
    this.#sink = sink;
    this.#schedule = schedule;
    this.#wait = schedule.intervalMs;
  }

  /** The task as first sent to the subscriber: from here on the store is read now and then. */
  begin(task: Task): void {
    // An event heard while the first view was read is newer than it: that state stays the last.
    this.#last ??= task.status?.state;
    this.#polling = true;
    if (!this.#reading) this.#arm();
  }

  /** A stream response made of an event of a run in this process: sent at once. */
  heard(response: StreamResponse): void {
    if (this.#over) return;
    this.#heard++;
    if (response.payload?.$case === 'statusUpdate') {
      const status = response.payload.value.status;
      // Without a message, the same state again says nothing new.
      if (!status?.message && status?.state === this.#last) return;
      if (status?.state !== this.#last) this.#moved();
      this.#last = status?.state;
    }
    this.#sink.send(response);
  }

  /** Reads the store now: a run in this process ended or paused; did the task stop? */
  check(): void {
    if (this.#over) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#clearTimer();
    void this.#read();
  }

  /** The stream is over (ended, or its client went away): no more reads. */
  stop(): void {
    this.#over = true;
    this.#clearTimer();
  }

  #arm(): void {
    if (this.#over || !this.#polling || this.#timer !== undefined) return;
    const wait = this.#wait;
    this.#wait = Math.min(Math.ceil(wait * 1.5), this.#schedule.maxIntervalMs);
    const timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#read();
    }, wait);
    timer.unref?.();
    this.#timer = timer;
  }

  #clearTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The task changed: it may change again soon, so the next read comes sooner. */
  #moved(): void {
    this.#wait = this.#schedule.intervalMs;
  }

  async #read(): Promise<void> {
    this.#reading = true;
    try {
      for (;;) {
        this.#again = false;
        const heard = this.#heard;
        let task: Task;
        try {
          task = await this.#sink.read();
        } catch (error) {
          this.stop();
          this.#sink.fail(error);
          return;
        }
        if (this.#over) return;
        // A stale read is dropped: the next one (on the timer) tells what is true now.
        if (heard === this.#heard) this.#saw(task);
        if (this.#over || !this.#again) break;
      }
    } finally {
      this.#reading = false;
    }
    this.#arm();
  }

  #saw(task: Task): void {
    const state = task.status?.state;
    if (state === undefined) return;
    if (hasStopped(state)) {
      for (const response of endOf(task)) this.#sink.send(response);
      this.stop();
      this.#sink.end();
      return;
    }
    if (state === this.#last) return;
    this.#last = state;
    this.#moved();
    this.#sink.send(statusUpdate(this.#ids, state, task.status?.message));
  }
}
