import { randomUUID } from 'node:crypto';
import { Role, type SendMessageRequest } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { ThreadEventListener } from '@skein/core';
import { threadIdProblem } from '@skein/spec';
import { malformed, toA2AError } from './a2a-errors.js';
import type { Begun } from './begun.js';
import type { EngineView } from './caller.js';
import { continueTask } from './continue-task.js';
import { submittedTask } from './find-task.js';
import { followRun } from './follow-run.js';
import { checkHistoryLength } from './history-length.js';
import { contentOfParts } from './parts.js';
import type { ServedAgent } from './served-agent.js';
import { newTaskId } from './task-id.js';
import { keepPushConfig } from './task-push-configs.js';
import { MESSAGE_KEY, TASK_KEY } from './thread-tasks.js';

/**
 * Checks the message and hands it to the thread: a new task (a turn of the thread its
 * `contextId` names, or of a new one), or, with a `taskId`, the task it continues. `onEvent`
 * hears the run it starts (a stream's progress).
 */
export async function beginMessage(
  served: ServedAgent,
  view: EngineView,
  params: SendMessageRequest,
  onEvent: ThreadEventListener | undefined,
  context: ServerCallContext,
): Promise<Begun> {
  const message = params.message;
  if (!message) throw malformed('params.message is missing: SendMessage carries a message');
  checkHistoryLength(params.configuration?.historyLength);
  if (message.role !== Role.ROLE_USER)
    throw malformed('message.role must be ROLE_USER: a client sends the user’s messages');
  if (message.messageId === '' || message.messageId.length > 256)
    throw malformed('message.messageId must be 1 to 256 characters (the client’s id for it)');
  const content = contentOfParts(message.parts, 'message.parts');
  try {
    if (message.taskId !== '')
      return await continueTask(served, view, params, message, content, onEvent, context);
    const contextId = message.contextId === '' ? randomUUID() : message.contextId;
    const problem = threadIdProblem(contextId);
    if (problem) throw malformed(`message.contextId: ${problem}`);
    if (message.contextId !== '') {
      const existing = await view.getThread(contextId);
      if (existing && (existing.workflow.id !== served.workflowId || existing.state.parent))
        throw malformed(`message.contextId ${contextId} is not a conversation of this agent`);
    }
    const taskId = newTaskId(contextId);
    await keepPushConfig(served, params, taskId, context);
    const first = submittedTask(contextId, taskId, [{ ...message, contextId, taskId }]);
    const controller = new AbortController();
    const run = followRun(served, view, context, taskId, onEvent, first);
    const done = view
      .send(
        contextId,
        { content, metadata: { [TASK_KEY]: taskId, [MESSAGE_KEY]: message.messageId } },
        {
          messageId: message.messageId,
          ifBusy: 'queue',
          workflowId: served.workflowId,
          signal: controller.signal,
          ...(run.onEvent ? { onEvent: run.onEvent } : {}),
        },
      )
      .finally(() => {
        run.release();
        served.runs.forget(taskId, controller);
      });
    served.runs.set(taskId, { controller, done });
    return {
      contextId,
      taskId,
      messageId: message.messageId,
      done,
      first,
    };
  } catch (error) {
    throw toA2AError(error, message.taskId || message.contextId);
  }
}
