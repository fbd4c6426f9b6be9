/**
 * The promise a store returns for a save that is already done (the in-memory store's every save).
 * The run loop does not wait on it: an `await` of a settled promise still costs a turn of the
 * microtask queue and a suspension of the loop, once per node.
 */
export const SAVED: Promise<void> = Promise.resolve();
