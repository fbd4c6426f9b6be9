import type { Task } from '@a2a-js/sdk';
import { taskNotFound } from './a2a-errors.js';
import type { EngineView } from './caller.js';
import { findTask, foundTaskView, servedThread } from './find-task.js';
import type { ServedAgent } from './served-agent.js';
import { MESSAGE_KEY, TASK_KEY } from './thread-tasks.js';

/** A message begun as a turn: which task it is, and the run (or wait) that ends with it. */
export interface Begun {
  readonly contextId: string;
  readonly taskId: string;
  readonly messageId: string;
  readonly done: Promise<unknown>;
  /** The task as the client first sees it. */
  readonly first: Task;
}

/** The task a begun message is part of, as it is now (a retried message: the task it began). */
export async function currentTask(
  served: ServedAgent,
  view: EngineView,
  begun: Begun,
  historyLength: number | undefined,
): Promise<Task> {
  const thread = await servedThread(served, view, begun.contextId);
  if (!thread) throw taskNotFound(begun.taskId);
  const stored = thread.conversation
    .getAllMessages()
    .find((m) => m.role === 'user' && m.metadata?.[MESSAGE_KEY] === begun.messageId);
  const taskId =
    typeof stored?.metadata?.[TASK_KEY] === 'string' ? stored.metadata[TASK_KEY] : begun.taskId;
  return foundTaskView(view, await findTask(served, view, taskId), taskId, { historyLength });
}
