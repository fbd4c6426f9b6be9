import type { CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import type { CheckpointStore } from '@skein/core';
import { SkeinError } from '@skein/spec';
import type { ThreadDirectory } from '../threads/thread-directory.js';
import { isThreadId } from '../threads/thread-id.js';

// What MCP allows in one answer; also how many threads are loaded to see whose they are.
const MAX_VALUES = 100;

async function visible(
  directory: ThreadDirectory,
  threadId: string,
  caller: string | undefined,
): Promise<boolean> {
  try {
    await directory.find(threadId, caller);
    return true;
  } catch (error) {
    if (SkeinError.hasCode(error, 'THREAD_NOT_FOUND')) return false;
    throw error;
  }
}

/**
 * `completion/complete` of a thread template's `threadId`: the ids of the threads `caller` may
 * see that start with `typed`, most recently changed first. The store's list is narrowed to the
 * offered workflows' ids of the form handed out, and only the newest 100 of those are loaded to
 * see whose they are: `hasMore` says when there were more.
 */
export async function completeThreadId(
  store: CheckpointStore,
  directory: ThreadDirectory,
  typed: string,
  caller: string | undefined,
): Promise<CompleteResult> {
  const candidates = (await store.listThreads())
    .filter(
      (t) =>
        t.threadId.startsWith(typed) && isThreadId(t.threadId) && directory.offers(t.workflowId),
    )
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  const loaded = candidates.slice(0, MAX_VALUES);
  const seen = await Promise.all(loaded.map((t) => visible(directory, t.threadId, caller)));
  const values = loaded.filter((_, i) => seen[i]).map((t) => t.threadId);
  const hasMore = candidates.length > MAX_VALUES;
  return { completion: { values, hasMore, ...(hasMore ? {} : { total: values.length }) } };
}
