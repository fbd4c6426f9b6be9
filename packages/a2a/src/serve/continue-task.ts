import { type Message, type SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { ThreadEventListener } from '@skein/core';
import { malformed, unsupported } from './a2a-errors.js';
import type { Begun } from './begun.js';
import type { EngineView } from './caller.js';
import { findTask, foundTaskView } from './find-task.js';
import { followRun } from './follow-run.js';
import { type contentOfParts, dataOfParts } from './parts.js';
import type { ServedAgent } from './served-agent.js';
import { keepPushConfig } from './task-push-configs.js';
import { isFinal, MESSAGE_KEY, TASK_KEY } from './thread-tasks.js';

/** A message to a task that goes on: its answer while it waits, a steer while it works. */
export async function continueTask(
  served: ServedAgent,
  view: EngineView,
  params: SendMessageRequest,
  message: Message,
  content: ReturnType<typeof contentOfParts>,
  onEvent: ThreadEventListener | undefined,
  context: ServerCallContext,
): Promise<Begun> {
  const taskId = message.taskId;
  const found = await findTask(served, view, taskId);
  const { thread } = found;
  const contextId = thread.threadId;
  if (message.contextId !== '' && message.contextId !== contextId)
    throw malformed(`message.contextId is not the context of task ${taskId}`);
  const first = await foundTaskView(view, found, taskId, {});
  const state = first.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  if (found.span && (!found.latest || isFinal(state)))
    throw unsupported(
      `Task ${taskId} is over: it takes no more messages. Send one without taskId in its context (contextId ${contextId}) to start the next task`,
    );
  const controller = new AbortController();
  const listening = onEvent === undefined ? {} : { onEvent };
  const metadata = { [TASK_KEY]: taskId, [MESSAGE_KEY]: message.messageId };
  const sent = (ifBusy: 'queue' | 'steer') =>
    view.send(
      contextId,
      { content, metadata },
      { messageId: message.messageId, ifBusy, signal: controller.signal, ...listening },
    );
  let done: Promise<unknown>;
  const pending = thread.state.pending;
  const data = dataOfParts(message.parts);
  if (state === TaskState.TASK_STATE_INPUT_REQUIRED && pending?.kind === 'tool-approval' && !data)
    throw malformed(
      `Task ${taskId} waits for tool approvals: answer with one data part { "approvals": { "<call id>": { "approved": true } } }`,
    );
  await keepPushConfig(served, params, taskId, context);
  if (state === TaskState.TASK_STATE_INPUT_REQUIRED) {
    // The answer is claimed before this returns: exactly one answer is taken (another gets
    // RESUME_CONFLICT), and the task reads as working from now on.
    const structured =
      pending?.kind === 'tool-approval' || (pending?.kind === 'user-input' && pending.input);
    const input = data && structured ? data.value : content;
    const run = followRun(served, view, context, taskId, onEvent, undefined);
    // Heard from before the claim, whose checkpoint turns the task to working: the run is this
    // handler's to push from its first event on, and the engine-wide watcher leaves it be.
    let unsubscribe: (() => void) | undefined;
    const over = () => {
      unsubscribe?.();
      run.release();
    };
    let result: Promise<unknown>;
    try {
      if (run.onEvent) unsubscribe = await view.subscribe(contextId, run.onEvent);
      ({ result } = await view.claimResume(thread, input, { signal: controller.signal }));
    } catch (error) {
      over();
      throw error;
    }
    // The answer starts a run: this one is what cancelling the task aborts from now on.
    done = result.finally(() => {
      over();
      served.runs.forget(taskId, controller);
    });
    served.runs.set(taskId, { controller, done });
  }
  // While it works, the message joins the run that goes on (whose signal stays the task's).
  else done = sent(found.span ? 'steer' : 'queue');
  // What the client sees first: the task at work on what it was just given.
  const working = found.span
    ? {
        ...first,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
      }
    : first;
  return { contextId, taskId, messageId: message.messageId, done, first: working };
}
