import { type Task, TaskState } from '@a2a-js/sdk';
import { pauseForInput, type ToolInputAnswer } from '@skein/core';

/** What the pause keeps of the remote task, to answer it when the thread is resumed. */
export interface RemoteQuestion {
  readonly taskId: string;
  readonly contextId: string;
  /** How many times this call has asked: each answer is a message of its own id. */
  readonly asked: number;
}

/**
 * A task that asks for input as a pause of the thread: the person reads the agent's question
 * (its text parts; the rest is named), and the task's ids wait in the stored pause.
 */
export function pauseForRemoteInput(task: Task, agent: string, asked: number) {
  const parts = task.status?.message?.parts ?? [];
  const said = parts
    .map((part) =>
      part.content?.$case === 'text'
        ? part.content.value
        : `(${part.content?.$case ?? 'empty'} part)`,
    )
    .join('\n')
    .trim();
  const state: RemoteQuestion = { taskId: task.id, contextId: task.contextId, asked: asked + 1 };
  return pauseForInput({
    prompt: said === '' ? `The agent "${agent}" needs more input.` : `${agent}: ${said}`,
    state,
  });
}

/** The remote question a resumed call answers, or undefined when the stored state is not one. */
export function remoteQuestion(answered: ToolInputAnswer): RemoteQuestion | undefined {
  const state = answered.state as Partial<RemoteQuestion> | undefined;
  if (
    typeof state?.taskId !== 'string' ||
    typeof state.contextId !== 'string' ||
    !Number.isInteger(state.asked)
  )
    return undefined;
  return { taskId: state.taskId, contextId: state.contextId, asked: state.asked! };
}

/** The answer as the text of the message sent to the agent: text as is, anything else as JSON. */
export function answerText(answer: unknown): string {
  return typeof answer === 'string' ? answer : JSON.stringify(answer);
}

export function asksForInput(task: Task): boolean {
  return task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
}
