import { type Artifact, type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import type { ThreadContext } from '@skein/core';
import type { LLMMessage } from '@skein/spec';
import { dataPart, partsOfContent } from './parts.js';

/** The metadata keys a user message of a task carries (decision 0038). */
export const TASK_KEY = 'a2aTaskId';
export const MESSAGE_KEY = 'a2aMessageId';

/** Where one task's messages are in its thread's conversation: `[start, end)`. */
export interface TaskSpan {
  readonly taskId: string;
  readonly start: number;
  readonly end: number;
}

/**
 * The tasks of a conversation, in order. A task starts at the first user message carrying its id
 * and runs up to the first user message of another task: the answers it was given (which carry
 * no id, or its own) and the steered messages are in it.
 */
export function taskSpans(messages: readonly LLMMessage[]): TaskSpan[] {
  const starts: { taskId: string; start: number }[] = [];
  messages.forEach((message, i) => {
    const id = message.role === 'user' ? message.metadata?.[TASK_KEY] : undefined;
    if (typeof id === 'string' && starts.at(-1)?.taskId !== id)
      starts.push({ taskId: id, start: i });
  });
  return starts.map((s, i) => ({ ...s, end: starts[i + 1]?.start ?? messages.length }));
}

/** What a task's state is and says, as its status reports it. */
export interface TaskStatusFacts {
  readonly state: TaskState;
  /** What the agent says with it: a question, why it failed. */
  readonly parts: readonly Part[];
}

const FINAL_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/** Whether a task in `state` is over (nothing more happens to it). */
export function isFinal(state: TaskState): boolean {
  return FINAL_STATES.has(state);
}

/** Whether a task in `state` has stopped for now: over, or waiting for the client. */
export function hasStopped(state: TaskState): boolean {
  return isFinal(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED;
}

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

/** The thread's latest turn, as its task's status: the thread's own status, mapped. */
export function latestStatus(thread: ThreadContext): TaskStatusFacts {
  const { status } = thread;
  const pending = thread.state.pending;
  switch (status) {
    case 'COMPLETED':
      return { state: TaskState.TASK_STATE_COMPLETED, parts: [] };
    case 'FAILED': {
      const error = thread.state.error;
      return {
        state: TaskState.TASK_STATE_FAILED,
        parts: error ? [text(`${error.code}: ${error.message}`)] : [],
      };
    }
    case 'CANCELLED':
      return { state: TaskState.TASK_STATE_CANCELED, parts: [] };
    case 'PAUSED':
      if (pending?.kind === 'user-input' && !pending.answer)
        return {
          state: TaskState.TASK_STATE_INPUT_REQUIRED,
          parts: [
            text(pending.prompt ?? 'The agent waits for your answer.'),
            // The form the answer must fill, when the node declared one: answered by a data part.
            ...(pending.input ? [dataPart({ schema: pending.input })] : []),
          ],
        };
      if (pending?.kind === 'tool-approval' && !pending.answer)
        return {
          state: TaskState.TASK_STATE_INPUT_REQUIRED,
          parts: [
            text(
              'The agent waits for tool calls to be approved: answer with a data part { "approvals": { "<call id>": { "approved": true } } }.',
            ),
            dataPart({
              approvals: pending.calls
                .filter((c) => pending.awaiting.includes(c.id))
                .map((c) => ({ id: c.id, name: c.name, arguments: parsedArguments(c.arguments) })),
            }),
          ],
        };
      return { state: TaskState.TASK_STATE_WORKING, parts: [] };
    default:
      // PENDING, RUNNING, WAITING (on time, an event or its branches): the agent is at work.
      return { state: TaskState.TASK_STATE_WORKING, parts: [] };
  }
}

/** A call's arguments as the value they are (a model's JSON text), or the text when it is not JSON. */
function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * An earlier turn's status: the store keeps the thread's latest status only, so a turn that
 * ended with an answer is completed and one that ended without one failed (decision 0038).
 */
function earlierStatus(messages: readonly LLMMessage[]): TaskStatusFacts {
  const answered = messages.some((m) => m.role === 'assistant' && hasText(m));
  return answered
    ? { state: TaskState.TASK_STATE_COMPLETED, parts: [] }
    : { state: TaskState.TASK_STATE_FAILED, parts: [text('The turn ended without an answer.')] };
}

function hasText(message: LLMMessage): boolean {
  const { content } = message;
  return typeof content === 'string' ? content !== '' : content.length > 0;
}

/** What a task view needs of its thread beyond the conversation. */
export interface TaskSource {
  readonly thread: ThreadContext;
  readonly readAttachment: (digest: string) => Promise<Uint8Array | undefined>;
}

export interface TaskViewOptions {
  /** Keep only the last this many messages of its history (0: none; undefined: all). */
  readonly historyLength?: number | undefined;
  /** Include its artifacts (default true). */
  readonly artifacts?: boolean;
}

/** A task's status and content, built from its span of the thread. */
export async function taskView(
  source: TaskSource,
  span: TaskSpan,
  latest: boolean,
  options: TaskViewOptions = {},
): Promise<Task> {
  const { thread, readAttachment } = source;
  const all = thread.conversation.getAllMessages();
  const messages = all.slice(span.start, span.end);
  const facts = latest ? latestStatus(thread) : earlierStatus(messages);
  const contextId = thread.threadId;
  const taskId = span.taskId;
  const read = (content: LLMMessage['content']) => partsOfContent(content, readAttachment);
  const keep = options.historyLength;
  const history: Message[] = [];
  // Without history (a subscription's poll asks for none), no message's parts are read.
  for (const [i, message] of keep === 0 ? [] : messages.entries()) {
    if ((message.role !== 'user' && message.role !== 'assistant') || !hasText(message)) continue;
    const id = message.metadata?.[MESSAGE_KEY];
    history.push({
      messageId: typeof id === 'string' ? id : `${taskId}:${span.start + i}`,
      contextId,
      taskId,
      role: message.role === 'user' ? Role.ROLE_USER : Role.ROLE_AGENT,
      parts: await read(message.content),
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    });
  }
  const answer = messages.findLast((m) => m.role === 'assistant' && hasText(m));
  const artifacts: Artifact[] =
    facts.state === TaskState.TASK_STATE_COMPLETED && answer && options.artifacts !== false
      ? [
          {
            artifactId: `${taskId}:answer`,
            name: 'answer',
            description: 'The agent’s answer',
            parts: await read(answer.content),
            metadata: undefined,
            extensions: [],
          },
        ]
      : [];
  return {
    id: taskId,
    contextId,
    status: {
      state: facts.state,
      message:
        facts.parts.length === 0
          ? undefined
          : {
              messageId: `${taskId}:status`,
              contextId,
              taskId,
              role: Role.ROLE_AGENT,
              parts: [...facts.parts],
              metadata: undefined,
              extensions: [],
              referenceTaskIds: [],
            },
      timestamp: undefined,
    },
    artifacts,
    history: keep === undefined ? history : keep === 0 ? [] : history.slice(-keep),
    metadata: undefined,
  };
}
