import { afterThisTurn } from './yield-to-event-loop.js';

/**
 * How long work may run back to back, across every thread in the process, before the executor
 * lets the event loop turn (timers, I/O, an abort, a pending write). A few milliseconds keeps the
 * pause cost far below 1%.
 */
export const SLICE_MS = 4;

/**
 * How long a thread woken after a yield may run before it asks again (at least one node). Long
 * enough for a thread of small nodes to finish what it was doing, so it does not wait one more
 * turn per node; short enough that 64 waiting threads add at most a few milliseconds to a turn.
 */
export const RESUMED_MS = 0.1;

/** When the current slice began; -1 once the event loop has turned since. */
let sliceStart = -1;

function endSlice(): void {
  sliceStart = -1;
}

/**
 * Whether the process has run longer than `SLICE_MS` since the event loop last turned. The slice
 * is shared, not kept per thread: with a per-thread clock, 64 threads that each yield after 4 ms
 * kept the event loop from turning for 64 × 4 ms, and everything that waited on it (a runner's
 * result writes, timers, file reads) stayed alive long enough to reach V8's old generation.
 * A thread woken after a yield runs on for `RESUMED_MS` (at least one node) before it asks
 * again, so every waiting thread moves on at each turn.
 */
export function sliceSpent(now: number): boolean {
  if (sliceStart < 0) {
    sliceStart = now;
    afterThisTurn(endSlice);
    return false;
  }
  return now - sliceStart >= SLICE_MS;
}
