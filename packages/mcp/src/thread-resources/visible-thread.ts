import type { ThreadContext } from '@skein/core';
import { SkeinError } from '@skein/spec';
import { resourceNotFound } from '../publish/publication-errors.js';
import type { ThreadDirectory } from '../threads/thread-directory.js';

/**
 * The thread `threadId` if `caller` may see it (`ThreadDirectory.find`'s rules); otherwise the
 * publications' "resource not found" for `uri`, in the same words whatever the reason.
 */
export async function visibleThread(
  directory: ThreadDirectory,
  threadId: string,
  caller: string | undefined,
  uri: string,
): Promise<ThreadContext> {
  try {
    return await directory.find(threadId, caller);
  } catch (error) {
    throw notFoundAs(error, uri);
  }
}

/** `error` as "resource not found" for `uri` when it says the thread is not there. */
export function notFoundAs(error: unknown, uri: string): unknown {
  return SkeinError.hasCode(error, 'THREAD_NOT_FOUND') ||
    SkeinError.hasCode(error, 'CHECKPOINT_NOT_FOUND')
    ? resourceNotFound(uri)
    : error;
}
