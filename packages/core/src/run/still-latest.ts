import { ThreadConflictError } from '@skein/spec';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { ThreadContext } from '../thread/thread-context.js';

/**
 * A thread loaded RUNNING goes on from its last checkpoint, where a dead process left it. But the
 * process running it may have been alive after all and, between the load and this process taking
 * the lease, finished or paused the thread and given the lease up: the lease is then free, yet
 * the loaded checkpoint is no longer the latest, and going on from it would run a node again (a
 * tool's side effect twice; only the save after it would be refused). So once the lease is held,
 * the loaded checkpoint must still be the latest; if not, nothing runs and the caller hears
 * `THREAD_LEASED` (`recover` skips such a thread). A read of the latest checkpoint, paid only
 * when `recover` takes a thread over, which is rare. (A stale thread object run any other way is
 * refused by the store at its first save, as before.)
 */
export async function checkStillLatest(
  store: CheckpointStore,
  thread: ThreadContext,
): Promise<void> {
  const latest = await store.load(thread.threadId);
  if (latest === undefined || latest.checkpoint.id === thread.lastCheckpointId) return;
  throw new ThreadConflictError(
    'THREAD_LEASED',
    thread.threadId,
    `Thread ${thread.threadId} was moved on by another process after it was loaded (its latest checkpoint is ${latest.checkpoint.id}, not ${thread.lastCheckpointId}); load it again`,
    { details: { loaded: thread.lastCheckpointId, latest: latest.checkpoint.id } },
  );
}
