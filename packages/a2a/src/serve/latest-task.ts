import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { SkeinEngine, ThreadContext } from '@skein/core';
import { contextOf } from './caller.js';
import { contextOfTask } from './task-id.js';
import { taskSpans, taskView } from './thread-tasks.js';

/** A thread's latest task as stored, and the caller whose task it is. */
export interface LatestTask {
  readonly thread: ThreadContext;
  readonly task: Task;
  /** The call context of the thread's caller: whose push configs the task has. */
  readonly context: ServerCallContext;
}

/**
 * The latest task of thread `threadId` as the store has it (at `checkpointId`, when given), or
 * undefined when the thread is not a context of `workflowId` or holds no task of its own. What
 * a run no request started is read as: whatever turn runs, it is the latest task's.
 */
export async function latestTask(
  engine: SkeinEngine,
  workflowId: string,
  threadId: string,
  checkpointId?: string,
): Promise<LatestTask | undefined> {
  const thread =
    checkpointId === undefined
      ? await engine.getThread(threadId)
      : await engine.loadThread(threadId, checkpointId);
  if (!thread || thread.workflow.id !== workflowId || thread.state.parent) return undefined;
  const span = taskSpans(thread.conversation.getAllMessages()).at(-1);
  // A fork keeps the messages of the thread it was forked from: their tasks are that thread's.
  if (!span || contextOfTask(span.taskId) !== threadId) return undefined;
  const source = {
    thread,
    readAttachment: (digest: string) => engine.readAttachment(threadId, digest),
  };
  return {
    thread,
    task: await taskView(source, span, true),
    context: contextOf(thread.state.principal),
  };
}
