import type { InMemoryCheckpointStore } from '@skein/core';

/**
 * Deletes every thread of a finished run, as an app with an in-memory store would: kept, 30 runs
 * of 10k branches would make every later run pay for marking them.
 */
export async function emptyStore(store: InMemoryCheckpointStore): Promise<void> {
  for (const { threadId } of await store.listThreads()) await store.delete(threadId);
}
