import { randomUUID } from 'node:crypto';
import type { SendMessageResult, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { Tool, ToolExecutionContext } from '@skein/core';
import { type A2AAgentToolOptions, checkOptions } from './a2a-agent-tool-options.js';
import { toCallError } from './call-failure.js';
import { createClient } from './create-client.js';
import { answerText, asksForInput, pauseForRemoteInput, remoteQuestion } from './input-pause.js';
import { pollTask } from './poll-task.js';
import { isTerminal } from './task-states.js';
import { toolDescription } from './tool-description.js';
import { toolNameFromAgentName } from './tool-name.js';
import { toToolResult } from './tool-result.js';
import { userMessageRequest } from './user-message.js';

/** What the model sends: its request, and the ids of a task it is answering. */
export interface A2AToolArgs {
  readonly message: string;
  readonly taskId?: string;
  readonly contextId?: string;
}

const PARAMETERS = {
  type: 'object',
  properties: {
    message: { type: 'string', description: 'What to ask or tell the agent.' },
    taskId: {
      type: 'string',
      description: 'To answer an agent that asked for input: the taskId it gave.',
    },
    contextId: {
      type: 'string',
      description: 'The contextId the agent gave, to continue the same conversation.',
    },
  },
  required: ['message'],
  additionalProperties: false,
} as const;

// Bounds the cancel request of an aborted call: nothing waits for its answer but this call.
const CANCEL_TIMEOUT_MS = 10_000;

/**
 * Cancels the task the aborted call left running, once; the agent may refuse (it already
 * finished) or be gone, which the model cannot act on: a warning says so.
 */
async function cancelLeftTask(
  client: Client,
  taskId: string,
  agent: string,
  context: ToolExecutionContext,
): Promise<void> {
  try {
    await client.cancelTask(
      { tenant: '', id: taskId, metadata: undefined },
      { signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) },
    );
  } catch (error) {
    const failure = toCallError(error, agent, 'CancelTask');
    context.emitter.emit('warning', {
      threadId: context.threadId,
      nodeId: context.nodeId,
      code: 'A2A_CANCEL_FAILED',
      message: failure.message,
      details: { agent, taskId },
    });
  }
}

/**
 * A remote A2A agent as a Skein tool. The model sends `message` (and, to answer an agent that
 * asked for input, the `taskId` and `contextId` it gave); the tool sends it as a user message
 * through the official SDK client, waits for the task to finish or stop for input (reading it
 * again with `GetTask` while it runs), and gives back:
 * - a completed task's artifacts (text, data as JSON text, files as file or image parts) with
 *   `data: { taskId, contextId, state }`;
 * - for input required, a pause of the thread (`pauseForInput`): a person reads the agent's
 *   question wherever the thread's pauses are shown (MCP elicitation, A2A, a chat), and the call
 *   runs again with the answer, which goes to the same remote task. With `inputRequired:
 *   'ask-model'`, and always for authorization required, the result is the agent's question and
 *   how to answer it instead: not an error, the model answers by calling again;
 * - for a failed, rejected or canceled task, an error result with what the agent said.
 *
 * The message's id is the call's `idempotencyKey` when the engine gives one, so a retried call
 * is the same message to the agent. The message is sent without blocking, so the agent names
 * its task at once: when the call is aborted (thread cancelled, tool timeout) while that task
 * runs, it is canceled at the agent, once, and the abort goes on. (An agent that ignores
 * `returnImmediately` and holds the request until the task ends cannot be canceled this way:
 * its task has no id yet when the abort comes.)
 *
 * A request that fails (agent unreachable, an HTTP or JSON-RPC error) throws an `A2ACallError`
 * (`A2A_CALL_FAILED`, `retryable` for network errors, 5xx and 429), which the thread reads as
 * an error tool result. The card is read (or checked) here: a bad one throws an `A2ACallError`
 * (`A2A_AGENT_CARD_INVALID`), bad options an `InvalidArgumentError`.
 */
export async function a2aAgentTool(options: A2AAgentToolOptions): Promise<Tool<A2AToolArgs>> {
  checkOptions(options);
  const { client, card } = await createClient(options);
  const agent = card.name;
  const intervalMs = options.pollIntervalMs ?? 200;
  const maxIntervalMs = Math.max(intervalMs, options.maxPollIntervalMs ?? 5_000);
  const pauses = (options.inputRequired ?? 'pause') === 'pause';

  return {
    name: options.name ?? toolNameFromAgentName(agent),
    description: options.description ?? toolDescription(card),
    parameters: PARAMETERS,
    source: options.source ?? `a2a:${agent}`,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    async execute(args, context) {
      const { signal } = context;
      const key = context.idempotencyKey ?? randomUUID();
      // Run again with a person's answer to the agent's question: the answer goes to its task.
      const question = context.answered ? remoteQuestion(context.answered) : undefined;
      const turn = question
        ? {
            messageId: `${key}:answer:${question.asked}`,
            text: answerText(context.answered!.answer),
            taskId: question.taskId,
            contextId: question.contextId,
          }
        : {
            messageId: key,
            text: args.message,
            taskId: args.taskId || undefined,
            contextId: args.contextId || undefined,
          };
      // A continued task can be canceled from the start; a new one once the agent names it.
      let running: string | undefined = turn.taskId;
      try {
        let result: SendMessageResult;
        try {
          result = await client.sendMessage(userMessageRequest(turn), { signal });
        } catch (error) {
          throw signal.aborted ? error : toCallError(error, agent, 'SendMessage');
        }
        if (!('messageId' in result)) {
          running = result.id;
          const getTask = async (id: string): Promise<Task> => {
            try {
              return await client.getTask({ tenant: '', id, historyLength: 0 }, { signal });
            } catch (error) {
              throw signal.aborted ? error : toCallError(error, agent, 'GetTask');
            }
          };
          result = await pollTask(result, getTask, { intervalMs, maxIntervalMs, signal });
          if (isTerminal(result.status?.state)) running = undefined;
        } else running = undefined;
        if (pauses && !('messageId' in result) && asksForInput(result))
          return pauseForRemoteInput(result, agent, question?.asked ?? 0);
        return toToolResult(result, agent);
      } catch (error) {
        if (!signal.aborted) throw error;
        if (running !== undefined) await cancelLeftTask(client, running, agent, context);
        throw signal.reason;
      }
    },
  };
}
