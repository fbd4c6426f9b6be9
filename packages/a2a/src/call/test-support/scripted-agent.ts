import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';

/** What one scripted turn does with the user's message it was sent. */
export type AgentTurn = (turn: Turn) => void | Promise<void>;

export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

function agentMessage(parts: Part[], taskId: string, contextId: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** One request to the agent, and what the turn can publish about it. */
export class Turn {
  readonly text: string;
  readonly messageId: string;
  readonly taskId: string;
  readonly contextId: string;
  /** Resolves when the task is canceled (the turn should then stop). */
  readonly canceled: Promise<void>;
  #started = false;
  readonly #request: RequestContext;
  readonly #bus: ExecutionEventBus;

  constructor(request: RequestContext, bus: ExecutionEventBus, canceled: Promise<void>) {
    this.#request = request;
    this.#bus = bus;
    this.canceled = canceled;
    const first = request.userMessage.parts[0]?.content;
    this.text = first?.$case === 'text' ? first.value : '';
    this.messageId = request.userMessage.messageId;
    this.taskId = request.taskId;
    this.contextId = request.contextId;
  }

  /** Answers with a message and no task (must be all the turn does). */
  reply(text: string): void {
    this.#bus.publish(AgentEvent.message(agentMessage([textPart(text)], '', this.contextId)));
  }

  /** Publishes the task (every turn's first event must be one), then the new state. */
  status(state: TaskState, text?: string): void {
    const message =
      text === undefined ? undefined : agentMessage([textPart(text)], this.taskId, this.contextId);
    const status = { state, message, timestamp: new Date().toISOString() };
    if (!this.#started) {
      this.#started = true;
      const task: Task = this.#request.task ?? {
        id: this.taskId,
        contextId: this.contextId,
        status,
        artifacts: [],
        history: [this.#request.userMessage],
        metadata: undefined,
      };
      this.#bus.publish(AgentEvent.task({ ...task, status }));
      return;
    }
    this.#bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        status,
        metadata: undefined,
      }),
    );
  }

  artifact(parts: Part[], name = 'result'): void {
    if (!this.#started) this.status(TaskState.TASK_STATE_WORKING);
    this.#bus.publish(
      AgentEvent.artifactUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        artifact: {
          artifactId: randomUUID(),
          name,
          description: '',
          parts,
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
  }
}

/**
 * An agent that answers each request with the next scripted turn. It records the turns it ran
 * and the tasks it was asked to cancel; a canceled task ends in `TASK_STATE_CANCELED`.
 */
export class ScriptedAgentExecutor implements AgentExecutor {
  readonly turns: Turn[] = [];
  readonly canceledTaskIds: string[] = [];
  readonly #script: AgentTurn[];
  readonly #cancels = new Map<string, () => void>();

  constructor(script: AgentTurn[]) {
    this.#script = [...script];
  }

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const step = this.#script.shift();
    if (!step) throw new Error(`no scripted turn left for "${request.userMessage.messageId}"`);
    const canceled = new Promise<void>((resolve) => this.#cancels.set(request.taskId, resolve));
    const turn = new Turn(request, bus, canceled);
    this.turns.push(turn);
    await step(turn);
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.canceledTaskIds.push(taskId);
    this.#cancels.get(taskId)?.();
    const turn = this.turns.findLast((t) => t.taskId === taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: turn?.contextId ?? '',
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: agentMessage(
            [textPart('Canceled by the client.')],
            taskId,
            turn?.contextId ?? '',
          ),
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
  }
}
