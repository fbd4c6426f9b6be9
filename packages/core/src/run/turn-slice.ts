import { afterThisTurn } from './yield-to-event-loop.js';

/**
 * How long work may run back to back, across every thread an executor runs, before it lets the
 * event loop turn (timers, I/O, an abort, a pending write). A few milliseconds keeps the
 * pause cost far below 1%.
 */
export const SLICE_MS = 4;

/**
 * How long a thread woken after a yield may run before it asks again (at least one node). Long
 * enough for a thread of small nodes to finish what it was doing, so it does not wait one more
 * turn per node; short enough that 64 waiting threads add at most a few milliseconds to a turn.
 */
export const RESUMED_MS = 0.1;

/**
 * When the executor's work began since the event loop last turned. One per executor (so per
 * engine), not per thread: with a per-thread clock, 64 threads that each yield after 4 ms kept
 * the event loop from turning for 64 × 4 ms, and everything that waited on it (a runner's result
 * writes, timers, file reads) waited that long and was held in memory meanwhile. A thread
 * woken after a yield runs on for `RESUMED_MS` (at least one node) before it asks again, so every
 * waiting thread moves on at each turn.
 */
export class TurnSlice {
  /** When the current slice began; -1 once the event loop has turned since. */
  #start = -1;
  readonly #end = () => {
    this.#start = -1;
  };

  /** Whether this executor has run longer than `SLICE_MS` since the event loop last turned. */
  spent(now: number): boolean {
    if (this.#start < 0) {
      this.#start = now;
      afterThisTurn(this.#end);
      return false;
    }
    return now - this.#start >= SLICE_MS;
  }
}
