/**
 * Resolves on a later turn of the event loop (after timers and I/O), not in a microtask: a run of
 * synchronous nodes would otherwise keep abort signals, timers and other threads waiting.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
