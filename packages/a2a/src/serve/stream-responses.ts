import { type Message, Role, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import type { ThreadEvent } from '@skein/core';

/** Which task a stream's updates are of. */
export interface StreamIds {
  readonly contextId: string;
  readonly taskId: string;
}

export function taskResponse(value: Task): StreamResponse {
  return { payload: { $case: 'task', value } };
}

export function statusUpdate(
  ids: StreamIds,
  state: TaskState,
  message: Message | undefined,
): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: {
        taskId: ids.taskId,
        contextId: ids.contextId,
        status: { state, message, timestamp: new Date().toISOString() },
        metadata: undefined,
      },
    },
  };
}

/** What a client following a task hears of a thread event while it works. */
export function progressOf(event: ThreadEvent, ids: StreamIds): StreamResponse[] {
  if (event.type === 'thread:started')
    return [statusUpdate(ids, TaskState.TASK_STATE_WORKING, undefined)];
  if (event.type !== 'message:added' || event.message.role !== 'assistant') return [];
  const { content } = event.message;
  if (typeof content !== 'string' || content === '') return [];
  const message: Message = {
    messageId: `${ids.taskId}:${event.position}`,
    contextId: ids.contextId,
    taskId: ids.taskId,
    role: Role.ROLE_AGENT,
    parts: [
      {
        content: { $case: 'text', value: content },
        metadata: undefined,
        filename: '',
        mediaType: 'text/plain',
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return [statusUpdate(ids, TaskState.TASK_STATE_WORKING, message)];
}

/** How a stream ends: the task's artifacts, then its status (final, or waiting for input). */
export function endOf(task: Task): StreamResponse[] {
  const artifacts: StreamResponse[] = task.artifacts.map((artifact) => ({
    payload: {
      $case: 'artifactUpdate',
      value: {
        taskId: task.id,
        contextId: task.contextId,
        artifact,
        append: false,
        lastChunk: true,
        metadata: undefined,
      },
    },
  }));
  return [
    ...artifacts,
    {
      payload: {
        $case: 'statusUpdate',
        value: {
          taskId: task.id,
          contextId: task.contextId,
          status: task.status,
          metadata: undefined,
        },
      },
    },
  ];
}
