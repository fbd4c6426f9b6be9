import { type SendMessageRequest, type StreamResponse, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { ThreadEventListener } from '@skein/core';
import { toA2AError } from './a2a-errors.js';
import { beginMessage } from './begin-message.js';
import { currentTask } from './begun.js';
import type { EngineView } from './caller.js';
import { EventQueue } from './event-queue.js';
import { followTask } from './follow-task-stream.js';
import type { ServedAgent } from './served-agent.js';
import { endOf, progressOf, taskResponse } from './stream-responses.js';
import { hasStopped } from './thread-tasks.js';

/**
 * `SendStreamingMessage`: the task the message begins or continues, then what its run says as it
 * goes, then its end. A run this process does not hear (the message waits in the thread's inbox,
 * or another process took its turn) is followed as a subscriber follows it.
 */
export async function* streamMessage(
  served: ServedAgent,
  view: EngineView,
  params: SendMessageRequest,
  context: ServerCallContext,
): AsyncGenerator<StreamResponse, void, undefined> {
  const queue = new EventQueue<StreamResponse>();
  let ids: { contextId: string; taskId: string } | undefined;
  let last: TaskState | undefined = TaskState.TASK_STATE_SUBMITTED;
  const progress: ThreadEventListener = (event) => {
    if (!ids) return;
    for (const response of progressOf(event, ids)) {
      if (response.payload?.$case === 'statusUpdate') last = response.payload.value.status?.state;
      queue.push(response);
    }
  };
  const begun = await beginMessage(served, view, params, progress, context);
  ids = { contextId: begun.contextId, taskId: begun.taskId };
  // Whether the task goes on where this process does not hear it (see below).
  let elsewhere = false;
  begun.done.then(
    async () => {
      try {
        const task = await currentTask(served, view, begun, undefined);
        if (task.status && !hasStopped(task.status.state)) elsewhere = true;
        else for (const response of endOf(task)) queue.push(response);
        queue.end();
      } catch (error) {
        queue.fail(toA2AError(error, begun.taskId));
      }
    },
    (error: unknown) => queue.fail(toA2AError(error, begun.taskId)),
  );
  yield taskResponse(begun.first);
  yield* queue;
  // The message waits in the thread's inbox, or another process took its turn: the stream
  // follows the task as a subscriber does, from the state it last said.
  if (elsewhere) yield* followTask(served, view, begun.taskId, context, last);
}
