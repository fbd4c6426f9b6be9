import { ThreadConflictError } from '@skein/spec';
import type { ThreadContext } from '../thread/thread-context.js';

/** A resume that lost: the pause was answered, or is being answered, by someone else. */
export function resumeConflict(thread: ThreadContext, cause: unknown): ThreadConflictError {
  const at = thread.state.pending?.nodeId ?? thread.state.currentNodeId;
  return new ThreadConflictError(
    'RESUME_CONFLICT',
    thread.threadId,
    `Thread ${thread.threadId}'s pause at node ${at} was already claimed by another resume; nothing ran. Load the thread again to see where it is now.`,
    {
      cause,
      details: { nodeId: at, checkpointId: thread.lastCheckpointId },
    },
  );
}
