import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { SkeinEngine } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { unsupported } from './a2a-errors.js';
import { type A2ACardOptions, agentCard, extendedCard } from './agent-card.js';
import { type EngineView, principalOf, viewFor } from './caller.js';
import { cancelTask } from './cancel-task.js';
import { findTask, foundTaskView } from './find-task.js';
import { type FollowSchedule, followSchedule } from './follow-task.js';
import { followTask } from './follow-task-stream.js';
import { checkHistoryLength } from './history-length.js';
import { listTasks } from './list-tasks.js';
import type { PushNotifications } from './push/push-notifications.js';
import { sendMessage } from './send-message.js';
import type { ServedAgent } from './served-agent.js';
import { streamMessage } from './stream-message.js';
import { configsOf } from './task-push-configs.js';
import { TaskRuns } from './task-runs.js';

/**
 * The A2A request handler over a Skein engine (decision 0038). A context is a thread of the
 * served workflow; a task is one turn of it, started by a message without a `taskId`, continued
 * by messages naming it (an answer while it waits for input, a steer while it works). The store
 * is the truth: every task is read from its thread, so a restart, another process or another
 * transport sees the same tasks. A caller named by `authorize` sees its own threads only.
 *
 * Each method reads the request's caller and hands its view of the engine to the file that does
 * the method's work (`send-message.ts`, `stream-message.ts`, `list-tasks.ts`…).
 */
export class SkeinA2ARequestHandler implements A2ARequestHandler {
  readonly #served: ServedAgent;
  readonly #card: A2ACardOptions;
  readonly #url: string;
  /** Stops pushing the changes of runs this handler did not start (`close`). */
  readonly #unwatch: (() => void) | undefined;

  constructor(
    engine: SkeinEngine,
    workflowId: string,
    card: A2ACardOptions,
    url: string,
    push?: PushNotifications,
    follow: FollowSchedule = followSchedule(),
  ) {
    // Tasks are threads found by id in the store (and messages waiting in its inbox).
    if (!engine.store)
      throw new InvalidArgumentError(
        'engine',
        'an A2A agent keeps its tasks in the engine’s store: give the engine a store',
      );
    this.#served = { engine, workflowId, runs: new TaskRuns(), push, schedule: follow };
    this.#card = card;
    this.#url = url;
    // A task's changes are pushed whoever runs its turn here: a woken wait, the app's own send.
    this.#unwatch = push?.watchRuns(engine, workflowId);
  }

  /**
   * Stops following the engine's runs for push notifications (the server closing calls it);
   * runs under way go on, and so do the pushes they already made.
   */
  close(): void {
    this.#unwatch?.();
  }

  /** The card for an endpoint at `url` (the one a client reached it by). */
  cardFor(url: string): AgentCard {
    return agentCard(this.#card, url, this.#served.push !== undefined);
  }

  async getAgentCard(): Promise<AgentCard> {
    return this.cardFor(this.#url);
  }

  async getAuthenticatedExtendedAgentCard(
    _params: unknown,
    context: ServerCallContext,
  ): Promise<AgentCard> {
    const extend = this.#card.extended;
    // The card says it has none (capabilities.extendedAgentCard false): A2A 1.0 §3.3.4.
    if (!extend) throw unsupported('This agent has no extended card');
    // `authorize` named the caller (the options require it with `extended`).
    const caller = principalOf(context);
    if (caller === undefined) throw unsupported('The extended card is for authenticated callers');
    return extendedCard(this.cardFor(this.#url), await extend(caller));
  }

  async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Task> {
    return sendMessage(this.#served, this.#viewFor(context), params, context);
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield* streamMessage(this.#served, this.#viewFor(context), params, context);
  }

  async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    const view = this.#viewFor(context);
    checkHistoryLength(params.historyLength);
    const found = await findTask(this.#served, view, params.id);
    return foundTaskView(view, found, params.id, { historyLength: params.historyLength });
  }

  async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    return listTasks(this.#served, this.#viewFor(context), params);
  }

  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    return cancelTask(this.#served, this.#viewFor(context), params);
  }

  async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield* followTask(this.#served, this.#viewFor(context), params.id, context, undefined);
  }

  async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const configs = await configsOf(this.#served, params.taskId, context);
    return configs.create(params, params.taskId, context);
  }

  async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const configs = await configsOf(this.#served, params.taskId, context);
    return configs.get(params.taskId, params.id, context);
  }

  async listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const configs = await configsOf(this.#served, params.taskId, context);
    // A task has a few configs: one page holds them all.
    return { configs: await configs.list(params.taskId, context), nextPageToken: '' };
  }

  async deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    const configs = await configsOf(this.#served, params.taskId, context);
    await configs.delete(params.taskId, params.id, context);
  }

  /** The engine as the request's caller sees it (all of it, without `authorize`). */
  #viewFor(context: ServerCallContext): EngineView {
    return viewFor(this.#served.engine, principalOf(context));
  }
}
