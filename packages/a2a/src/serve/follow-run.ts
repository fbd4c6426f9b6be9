import type { Task } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { ThreadEventListener } from '@skein/core';
import type { EngineView } from './caller.js';
import { findTask, foundTaskView } from './find-task.js';
import type { ServedAgent } from './served-agent.js';

/**
 * What hears a run this handler starts: its `onEvent` (undefined: nothing listens), and what
 * ends the listening once the call that started it is over.
 */
export interface RunFollow {
  readonly onEvent: ThreadEventListener | undefined;
  readonly release: () => void;
}

/**
 * Follows one run of a thread, the one this handler is about to start for task `taskId`, by the
 * run's own `onEvent`: a stream's `progress` hears it, and so do the task's pushes. Unlike
 * `followTask`, which follows an A2A task wherever its turn runs, this hears only the run it is
 * given to, from its first event, and so keeps the engine-wide push watcher off it (no push
 * twice). `unstored` is a new task as sent, for as long as its new thread is not stored yet (its
 * run starts before its first checkpoint); undefined for a run an answer resumed.
 */
export function followRun(
  served: ServedAgent,
  view: EngineView,
  context: ServerCallContext,
  taskId: string,
  progress: ThreadEventListener | undefined,
  unstored: Task | undefined,
): RunFollow {
  const read = async (): Promise<Task> => {
    try {
      return await foundTaskView(view, await findTask(served, view, taskId), taskId, {});
    } catch (error) {
      if (unstored && error instanceof TaskNotFoundError) return unstored;
      throw error;
    }
  };
  const push = served.push?.followRun(taskId, context, read, unstored === undefined);
  const release = () => push?.release();
  if (!push) return { onEvent: progress, release };
  if (!progress) return { onEvent: push.onEvent, release };
  return {
    onEvent: (event) => {
      progress(event);
      push.onEvent(event);
    },
    release,
  };
}
