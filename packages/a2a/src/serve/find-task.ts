import { type Message, type Task, TaskState } from '@a2a-js/sdk';
import type { ThreadContext } from '@skein/core';
import { taskNotFound } from './a2a-errors.js';
import type { EngineView } from './caller.js';
import type { ServedAgent } from './served-agent.js';
import { contextOfTask } from './task-id.js';
import {
  TASK_KEY,
  type TaskSource,
  type TaskSpan,
  type TaskViewOptions,
  taskSpans,
  taskView,
} from './thread-tasks.js';

/** A task as found from its id: its span of the thread, or the post that waits to start it. */
export interface FoundTask {
  readonly thread: ThreadContext;
  readonly span: TaskSpan | undefined;
  readonly latest: boolean;
}

/** A thread of the served workflow the caller may see, or undefined. */
export async function servedThread(
  served: ServedAgent,
  view: EngineView,
  contextId: string,
): Promise<ThreadContext | undefined> {
  const thread = await view.getThread(contextId);
  return thread && thread.workflow.id === served.workflowId && !thread.state.parent
    ? thread
    : undefined;
}

/**
 * The task `taskId` names, when the caller may see it: one turn of its thread, or a message
 * posted behind a turn that still runs. Any other id is not found (`TaskNotFoundError`), another
 * caller's task as much as one that never was.
 */
export async function findTask(
  served: ServedAgent,
  view: EngineView,
  taskId: unknown,
): Promise<FoundTask> {
  const contextId = contextOfTask(taskId);
  const thread = contextId === undefined ? undefined : await servedThread(served, view, contextId);
  if (!thread) throw taskNotFound(taskId);
  const spans = taskSpans(thread.conversation.getAllMessages());
  const at = spans.findIndex((s) => s.taskId === taskId);
  if (at >= 0) return { thread, span: spans[at], latest: at === spans.length - 1 };
  // Posted behind a turn that still runs: the task is submitted, not started.
  const pending = (await served.engine.store!.pendingMessages?.(thread.threadId)) ?? [];
  if (pending.some((p) => p.message.metadata?.[TASK_KEY] === taskId))
    return { thread, span: undefined, latest: false };
  throw taskNotFound(taskId);
}

/** What a task view reads of its thread, attachments through the caller's view. */
export function taskSource(view: EngineView, thread: ThreadContext): TaskSource {
  return {
    thread,
    readAttachment: (digest: string) => view.readAttachment(thread.threadId, digest),
  };
}

/** A found task as the client sees it. */
export async function foundTaskView(
  view: EngineView,
  found: FoundTask,
  taskId: string,
  options: Pick<TaskViewOptions, 'historyLength'>,
): Promise<Task> {
  if (found.span)
    return taskView(taskSource(view, found.thread), found.span, found.latest, options);
  return submittedTask(found.thread.threadId, taskId, []);
}

/** A task that has not started: its message waits for the turn before it. */
export function submittedTask(contextId: string, taskId: string, history: Message[]): Task {
  return {
    id: taskId,
    contextId,
    status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
    artifacts: [],
    history,
    metadata: undefined,
  };
}
