/** Calls `callback` on a later turn of the event loop (after timers and I/O), not in a microtask. */
export function afterThisTurn(callback: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(callback);
  else setTimeout(callback, 0);
}

/**
 * Resolves on a later turn of the event loop: a run of synchronous nodes would otherwise keep
 * abort signals, timers and other threads waiting.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => afterThisTurn(resolve));
}
