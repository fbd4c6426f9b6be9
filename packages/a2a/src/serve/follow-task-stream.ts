import type { StreamResponse, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { ThreadEvent } from '@skein/core';
import { toA2AError } from './a2a-errors.js';
import { clientGone, type EngineView } from './caller.js';
import { EventQueue } from './event-queue.js';
import { findTask, foundTaskView } from './find-task.js';
import { TaskFollow } from './follow-task.js';
import type { ServedAgent } from './served-agent.js';
import { endOf, progressOf, statusUpdate, taskResponse } from './stream-responses.js';
import { contextOfTask } from './task-id.js';
import { hasStopped } from './thread-tasks.js';

/**
 * Follows an A2A task until it stops, wherever its turns run: unlike `followRun`, which hears
 * one run this handler starts, this hears whatever run the task is in — a run of this process as
 * it happens, any other (another process's, a woken wait, the app's own send) from the store —
 * because a subscriber asks for the task, not for a run. With `last` undefined (a subscriber) it
 * opens with the task as it is; with `last` (a stream that goes on following) it says only what
 * changed since.
 */
export async function* followTask(
  served: ServedAgent,
  view: EngineView,
  taskId: string,
  context: ServerCallContext,
  last: TaskState | undefined,
): AsyncGenerator<StreamResponse, void, undefined> {
  const queue = new EventQueue<StreamResponse>();
  const ids = { contextId: contextOfTask(taskId) ?? '', taskId };
  // Events of a run here come at once; the store, read now and then, tells of any other run
  // (another process's, a woken wait, the app's own send): see TaskFollow.
  const follow = new TaskFollow(
    ids,
    {
      read: async () =>
        foundTaskView(view, await findTask(served, view, taskId), taskId, { historyLength: 0 }),
      send: (response) => queue.push(response),
      end: () => queue.end(),
      fail: (error) => queue.fail(toA2AError(error, taskId)),
    },
    served.schedule,
  );
  let unsubscribe: (() => void) | undefined;
  // Followed before it is read: nothing that happens in between is missed.
  const listener = (event: ThreadEvent) => {
    for (const response of progressOf(event, ids)) follow.heard(response);
    // A wait on time or an event pauses the run, not the task: the store says which it was.
    if (isEnding(event)) follow.check();
  };
  // The client went away while the stream waits: it ends now, not at the task's next change.
  const gone = clientGone(context);
  const leave = () => {
    follow.stop();
    queue.end();
  };
  gone?.addEventListener('abort', leave, { once: true });
  if (gone?.aborted) leave();
  try {
    if (ids.contextId !== '') unsubscribe = await view.subscribe(ids.contextId, listener);
    const found = await findTask(served, view, taskId);
    const task = await foundTaskView(view, found, taskId, {});
    const state = task.status?.state;
    const stopped = state !== undefined && hasStopped(state);
    if (!stopped) follow.begin(task);
    if (last === undefined) yield taskResponse(task);
    else if (stopped) yield* endOf(task);
    else if (state !== undefined && state !== last)
      yield statusUpdate(ids, state, task.status?.message);
    if (stopped) return;
    yield* queue;
  } finally {
    // The stream ended, or its client went away: no more reads, no more events.
    gone?.removeEventListener('abort', leave);
    follow.stop();
    unsubscribe?.();
  }
}

function isEnding(event: ThreadEvent): boolean {
  return (
    event.type === 'thread:completed' ||
    event.type === 'thread:failed' ||
    event.type === 'thread:cancelled' ||
    event.type === 'thread:paused'
  );
}
