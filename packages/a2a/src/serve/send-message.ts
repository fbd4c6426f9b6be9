import type { SendMessageRequest, Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { toA2AError } from './a2a-errors.js';
import { beginMessage } from './begin-message.js';
import { currentTask } from './begun.js';
import type { EngineView } from './caller.js';
import type { ServedAgent } from './served-agent.js';

/**
 * `SendMessage`: the task the message begins or continues, once its turn stopped (completed,
 * failed, canceled, input-required), or at once with `returnImmediately`.
 */
export async function sendMessage(
  served: ServedAgent,
  view: EngineView,
  params: SendMessageRequest,
  context: ServerCallContext,
): Promise<Task> {
  const begun = await beginMessage(served, view, params, undefined, context);
  if (params.configuration?.returnImmediately) {
    // The run goes on; how it ended is read from the thread (GetTask) when the client asks.
    begun.done.catch(() => {});
    return begun.first;
  }
  await begun.done.catch((error: unknown) => {
    throw toA2AError(error, begun.taskId);
  });
  return currentTask(served, view, begun, params.configuration?.historyLength);
}
