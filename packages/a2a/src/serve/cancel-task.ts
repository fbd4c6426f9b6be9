import { type CancelTaskRequest, type Task, TaskState } from '@a2a-js/sdk';
import { notCancelable } from './a2a-errors.js';
import type { EngineView } from './caller.js';
import { findTask, foundTaskView } from './find-task.js';
import type { ServedAgent } from './served-agent.js';
import { isFinal, latestStatus } from './thread-tasks.js';

/**
 * `CancelTask`: aborts the task's run when this handler started it, and answers the task as it
 * ended. A task waiting for input, or run by another process, is not this handler's to cancel.
 */
export async function cancelTask(
  served: ServedAgent,
  view: EngineView,
  params: CancelTaskRequest,
): Promise<Task> {
  const found = await findTask(served, view, params.id);
  if (!found.span) throw notCancelable(params.id, 'it waits for the turn before it to end');
  const state = latestStatus(found.thread).state;
  if (!found.latest || isFinal(state)) throw notCancelable(params.id, 'it is over');
  const run = served.runs.get(params.id);
  if (!run)
    throw notCancelable(
      params.id,
      state === TaskState.TASK_STATE_INPUT_REQUIRED
        ? 'it waits for input (answer it, or start a new task in its context)'
        : 'another process of this agent runs it; ask that one',
    );
  run.controller.abort();
  // Its end is stored before `done` settles: the task reads as canceled (or as however it
  // ended, when it ended first).
  await run.done.catch(() => undefined);
  return foundTaskView(view, await findTask(served, view, params.id), params.id, {});
}
