import type { SendMessageResult } from '@a2a-js/sdk';
import { type Message, type Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { type ContentPart, type ToolOutput, toolOutput } from '@skein/spec';
import { toSkeinParts } from './skein-parts.js';

/**
 * Structured data beside an A2A tool result (stored in the tool message's `metadata.data`): the
 * ids to continue the conversation with, and the task's state by its A2A name
 * (`TASK_STATE_COMPLETED`, …). A plain message from the agent has no task and no state.
 */
export interface A2AResultData {
  readonly taskId?: string;
  readonly contextId: string;
  readonly state?: string;
}

const text = (value: string): ContentPart => ({ type: 'text', text: value });

function statusParts(task: Task): ContentPart[] {
  return toSkeinParts(task.status?.message?.parts ?? []);
}

function fromMessage(message: Message): ToolOutput {
  const parts = toSkeinParts(message.parts);
  return toolOutput({
    content: parts.length > 0 ? parts : '(the agent answered with an empty message)',
    data: {
      ...(message.taskId ? { taskId: message.taskId } : {}),
      contextId: message.contextId,
    } satisfies A2AResultData,
  });
}

const ENDED: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_REJECTED]: 'rejected',
  [TaskState.TASK_STATE_CANCELED]: 'was canceled',
};

/**
 * A task in a final or interrupted state as what the model reads:
 * - completed: the artifacts' parts (or, with none, the status message's);
 * - input or auth required: the agent's question, and how to answer it (call again with the
 *   `taskId` and `contextId`, given in the text and in `data`);
 * - failed, rejected, canceled: an error result with what the agent said.
 */
function fromTask(task: Task, agent: string): ToolOutput {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  const data: A2AResultData = {
    taskId: task.id,
    contextId: task.contextId,
    state: taskStateToJSON(state),
  };
  if (state === TaskState.TASK_STATE_COMPLETED) {
    const parts = toSkeinParts(task.artifacts.flatMap((artifact) => artifact.parts));
    const content = parts.length > 0 ? parts : statusParts(task);
    return toolOutput({
      content: content.length > 0 ? content : '(the agent completed the task with no output)',
      data,
    });
  }
  if (
    state === TaskState.TASK_STATE_INPUT_REQUIRED ||
    state === TaskState.TASK_STATE_AUTH_REQUIRED
  ) {
    const needs = state === TaskState.TASK_STATE_INPUT_REQUIRED ? 'more input' : 'authorization';
    const asked = statusParts(task);
    return toolOutput({
      content: [
        text(`The agent "${agent}" needs ${needs} to go on with the task. It says:\n`),
        ...(asked.length > 0 ? asked : [text('(no message)')]),
        text(
          `\nTo answer, call this tool again with your answer as \`message\`, taskId "${task.id}" and contextId "${task.contextId}".`,
        ),
      ],
      data,
    });
  }
  const said = statusParts(task);
  const what = ENDED[state] ?? `ended in an unexpected state (${taskStateToJSON(state)})`;
  return toolOutput({
    content: [text(`The agent "${agent}" ${what}${said.length > 0 ? ': ' : '.'}`), ...said],
    isError: true,
    data,
  });
}

/** What `sendMessage` or `getTask` gave, once no longer running, as the tool's result. */
export function toToolResult(result: SendMessageResult, agent: string): ToolOutput {
  return 'messageId' in result ? fromMessage(result) : fromTask(result, agent);
}
