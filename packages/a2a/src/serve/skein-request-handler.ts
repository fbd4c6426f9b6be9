import { randomUUID } from 'node:crypto';
import {
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  Role,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
  TaskState,
} from '@a2a-js/sdk';
import { PushNotificationNotSupportedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { SkeinEngine, ThreadContext, ThreadEvent } from '@skein/core';
import { threadIdProblem } from '@skein/spec';
import { malformed, notCancelable, taskNotFound, toA2AError, unsupported } from './a2a-errors.js';
import { type A2ACardOptions, agentCard, extendedCard } from './agent-card.js';
import { clientGone, type EngineView, principalOf, viewFor } from './caller.js';
import { EventQueue } from './event-queue.js';
import { type FollowSchedule, followSchedule, TaskFollow } from './follow-task.js';
import { contentOfParts, dataOfParts } from './parts.js';
import type { PushConfigs } from './push/push-configs.js';
import type { PushNotifications } from './push/push-notifications.js';
import { endOf, progressOf, statusUpdate, taskResponse } from './stream-responses.js';
import { contextOfTask, newTaskId } from './task-id.js';
import {
  hasStopped,
  isFinal,
  latestStatus,
  MESSAGE_KEY,
  TASK_KEY,
  type TaskSpan,
  taskSpans,
  taskView,
} from './thread-tasks.js';

const DEFAULT_PAGE = 50;
/** Where a push config sent with a message is, for the errors that name its fields. */
const SENT_CONFIG = 'configuration.taskPushNotificationConfig.';
const MAX_PAGE = 100;

/** A task as found from its id: its span of the thread, or the post that waits to start it. */
interface FoundTask {
  readonly thread: ThreadContext;
  readonly span: TaskSpan | undefined;
  readonly latest: boolean;
}

/** A message begun as a turn: which task it is, and the run (or wait) that ends with it. */
interface Begun {
  readonly contextId: string;
  readonly taskId: string;
  readonly messageId: string;
  readonly done: Promise<unknown>;
  /** The task as the client first sees it. */
  readonly first: Task;
}

type Progress = (event: ThreadEvent) => void;

/**
 * What hears a run this handler starts: its `onEvent` (undefined: nothing listens), and what
 * ends the listening once the call that started it is over.
 */
interface RunFollow {
  readonly onEvent: Progress | undefined;
  readonly release: () => void;
}

/** A run this handler started for a task: what aborts it, and its end. */
interface Run {
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
}

/**
 * The A2A request handler over a Skein engine (decision 0038). A context is a thread of the
 * served workflow; a task is one turn of it, started by a message without a `taskId`, continued
 * by messages naming it (an answer while it waits for input, a steer while it works). The store
 * is the truth: every task is read from its thread, so a restart, another process or another
 * transport sees the same tasks. A caller named by `authorize` sees its own threads only.
 */
export class SkeinA2ARequestHandler implements A2ARequestHandler {
  readonly #engine: SkeinEngine;
  readonly #workflowId: string;
  readonly #card: A2ACardOptions;
  readonly #url: string;
  /** Runs this handler started, by task: what `cancelTask` aborts. */
  readonly #runs = new Map<string, Run>();
  /** Push notifications, when the server sends them (decision 0039). */
  readonly #push: PushNotifications | undefined;
  /** How often a subscribed task is read from the store (`followIntervalMs`). */
  readonly #schedule: FollowSchedule;
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
    this.#engine = engine;
    this.#workflowId = workflowId;
    this.#card = card;
    this.#url = url;
    this.#push = push;
    this.#schedule = follow;
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
    return agentCard(this.#card, url, this.#push !== undefined);
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
    const view = viewFor(this.#engine, principalOf(context));
    const begun = await this.#begin(view, params, undefined, context);
    if (params.configuration?.returnImmediately) {
      // The run goes on; how it ended is read from the thread (GetTask) when the client asks.
      begun.done.catch(() => {});
      return begun.first;
    }
    await begun.done.catch((error: unknown) => {
      throw toA2AError(error, begun.taskId);
    });
    return this.#current(view, begun, params.configuration?.historyLength);
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const view = viewFor(this.#engine, principalOf(context));
    const queue = new EventQueue<StreamResponse>();
    let ids: { contextId: string; taskId: string } | undefined;
    let last: TaskState | undefined = TaskState.TASK_STATE_SUBMITTED;
    const progress: Progress = (event) => {
      if (!ids) return;
      for (const response of progressOf(event, ids)) {
        if (response.payload?.$case === 'statusUpdate') last = response.payload.value.status?.state;
        queue.push(response);
      }
    };
    const begun = await this.#begin(view, params, progress, context);
    ids = { contextId: begun.contextId, taskId: begun.taskId };
    // Whether the task goes on where this process does not hear it (see below).
    let elsewhere = false;
    begun.done.then(
      async () => {
        try {
          const task = await this.#current(view, begun, undefined);
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
    if (elsewhere) yield* this.#followTask(view, begun.taskId, context, last);
  }

  async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    const view = viewFor(this.#engine, principalOf(context));
    checkHistoryLength(params.historyLength);
    const found = await this.#find(view, params.id);
    return this.#viewOf(view, found, params.id, { historyLength: params.historyLength });
  }

  async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    const view = viewFor(this.#engine, principalOf(context));
    const pageSize = params.pageSize ?? DEFAULT_PAGE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE)
      throw malformed(`pageSize must be an integer from 1 to ${MAX_PAGE}, got ${pageSize}`);
    const offset = params.pageToken === '' ? 0 : Number(params.pageToken);
    if (!Number.isInteger(offset) || offset < 0)
      throw malformed(`pageToken ${JSON.stringify(params.pageToken)} is not one this server gave`);
    checkHistoryLength(params.historyLength);
    if (params.status === TaskState.UNRECOGNIZED)
      throw malformed('status must be one of the TASK_STATE_… values');
    const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : undefined;
    if (
      params.statusTimestampAfter &&
      (!RFC3339.test(params.statusTimestampAfter) || Number.isNaN(after))
    )
      throw malformed(
        `statusTimestampAfter must be an RFC 3339 time such as 2026-11-30T12:00:00Z, got ${JSON.stringify(params.statusTimestampAfter)}`,
      );
    const store = this.#engine.store!;
    const contexts = (await store.listThreads())
      .filter(
        (t) =>
          t.workflowId === this.#workflowId &&
          (params.contextId === '' || t.threadId === params.contextId) &&
          (after === undefined || Date.parse(t.updatedAt) >= after),
      )
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const tasks: Task[] = [];
    for (const info of contexts) {
      const thread = await this.#thread(view, info.threadId);
      if (!thread) continue;
      const spans = taskSpans(thread.conversation.getAllMessages());
      for (const [i, span] of [...spans.entries()].reverse()) {
        const task = await taskView(this.#source(view, thread), span, i === spans.length - 1, {
          historyLength: params.historyLength,
          artifacts: params.includeArtifacts ?? false,
        });
        if (
          params.status === TaskState.TASK_STATE_UNSPECIFIED ||
          task.status?.state === params.status
        )
          tasks.push(task);
      }
    }
    const page = tasks.slice(offset, offset + pageSize);
    const next = offset + pageSize;
    return {
      tasks: page,
      nextPageToken: next < tasks.length ? String(next) : '',
      pageSize,
      totalSize: tasks.length,
    };
  }

  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const view = viewFor(this.#engine, principalOf(context));
    const found = await this.#find(view, params.id);
    if (!found.span) throw notCancelable(params.id, 'it waits for the turn before it to end');
    const state = latestStatus(found.thread).state;
    if (!found.latest || isFinal(state)) throw notCancelable(params.id, 'it is over');
    const run = this.#runs.get(params.id);
    if (!run)
      throw notCancelable(
        params.id,
        state === TaskState.TASK_STATE_INPUT_REQUIRED
          ? 'it waits for input (answer it, or start a new task in its context)'
          : 'another process of this agent runs it; ask that one',
      );
    run.controller.abort();
    // Its end is stored before `done` settles: the task reads as canceled (or as however it
    // ended, when it ended first).
    await run.done.catch(() => undefined);
    return this.#viewOf(view, await this.#find(view, params.id), params.id, {});
  }

  async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.#followTask(
      viewFor(this.#engine, principalOf(context)),
      params.id,
      context,
      undefined,
    );
  }

  /**
   * Follows an A2A task until it stops, wherever its turns run: unlike `#followRun`, which hears
   * one run this handler starts, this hears whatever run the task is in — a run of this process as
   * it happens, any other (another process's, a woken wait, the app's own send) from the store —
   * because a subscriber asks for the task, not for a run. With `last` undefined (a subscriber) it
   * opens with the task as it is; with `last` (a stream that goes on following) it says only what
   * changed since.
   */
  async *#followTask(
    view: EngineView,
    taskId: string,
    context: ServerCallContext,
    last: TaskState | undefined,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const queue = new EventQueue<StreamResponse>();
    const ids = { contextId: contextOfTask(taskId) ?? '', taskId };
    // Events of a run here come at once; the store, read now and then, tells of any other run
    // (another process's, a woken wait, the app's own send): see TaskFollow.
    const follow = new TaskFollow(
      ids,
      {
        read: async () =>
          this.#viewOf(view, await this.#find(view, taskId), taskId, { historyLength: 0 }),
        send: (response) => queue.push(response),
        end: () => queue.end(),
        fail: (error) => queue.fail(toA2AError(error, taskId)),
      },
      this.#schedule,
    );
    let unsubscribe: (() => void) | undefined;
    // Followed before it is read: nothing that happens in between is missed.
    const listener = (event: ThreadEvent) => {
      for (const response of progressOf(event, ids)) follow.heard(response);
      // A wait on time or an event pauses the run, not the task: the store says which it was.
      if (isEnding(event)) follow.check();
    };
    // The client went away while the stream waits: it ends now, not at the task's next change.
    const gone = clientGone(context);
    const leave = () => {
      follow.stop();
      queue.end();
    };
    gone?.addEventListener('abort', leave, { once: true });
    if (gone?.aborted) leave();
    try {
      if (ids.contextId !== '') unsubscribe = await view.subscribe(ids.contextId, listener);
      const found = await this.#find(view, taskId);
      const task = await this.#viewOf(view, found, taskId, {});
      const state = task.status?.state;
      const stopped = state !== undefined && hasStopped(state);
      if (!stopped) follow.begin(task);
      if (last === undefined) yield taskResponse(task);
      else if (stopped) yield* endOf(task);
      else if (state !== undefined && state !== last)
        yield statusUpdate(ids, state, task.status?.message);
      if (stopped) return;
      yield* queue;
    } finally {
      // The stream ended, or its client went away: no more reads, no more events.
      gone?.removeEventListener('abort', leave);
      follow.stop();
      unsubscribe?.();
    }
  }

  async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const configs = await this.#configsOf(params.taskId, context);
    return configs.create(params, params.taskId, context);
  }

  async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const configs = await this.#configsOf(params.taskId, context);
    return configs.get(params.taskId, params.id, context);
  }

  async listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const configs = await this.#configsOf(params.taskId, context);
    // A task has a few configs: one page holds them all.
    return { configs: await configs.list(params.taskId, context), nextPageToken: '' };
  }

  async deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    const configs = await this.#configsOf(params.taskId, context);
    await configs.delete(params.taskId, params.id, context);
  }

  /** A task's push configs, once the task is found as the caller's (GetTask's rules). */
  async #configsOf(taskId: string, context: ServerCallContext): Promise<PushConfigs> {
    if (!this.#push) throw noPush();
    await this.#find(viewFor(this.#engine, principalOf(context)), taskId);
    return this.#push.configs;
  }

  /** A push config sent with a message, kept for its task before the message goes on. */
  async #keepPushConfig(params: SendMessageRequest, taskId: string, context: ServerCallContext) {
    const config = params.configuration?.taskPushNotificationConfig;
    // Without push notifications it is ignored, as the SDK's handler does.
    if (config && this.#push) await this.#push.configs.create(config, taskId, context, SENT_CONFIG);
  }

  /**
   * Follows one run of a thread, the one this handler is about to start for task `taskId`, by the
   * run's own `onEvent`: a stream's `progress` hears it, and so do the task's pushes. Unlike
   * `#followTask`, which follows an A2A task wherever its turn runs, this hears only the run it is
   * given to, from its first event, and so keeps the engine-wide push watcher off it (no push
   * twice). `unstored` is a new task as sent, for as long as its new thread is not stored yet (its
   * run starts before its first checkpoint); undefined for a run an answer resumed.
   */
  #followRun(
    view: EngineView,
    context: ServerCallContext,
    taskId: string,
    progress: Progress | undefined,
    unstored: Task | undefined,
  ): RunFollow {
    const read = async (): Promise<Task> => {
      try {
        return await this.#viewOf(view, await this.#find(view, taskId), taskId, {});
      } catch (error) {
        if (unstored && error instanceof TaskNotFoundError) return unstored;
        throw error;
      }
    };
    const push = this.#push?.followRun(taskId, context, read, unstored === undefined);
    const release = () => push?.release();
    if (!push) return { onEvent: progress, release };
    if (!progress) return { onEvent: push.onEvent, release };
    return {
      onEvent: (event) => {
        progress(event);
        push.onEvent(event);
      },
      release,
    };
  }

  /** A thread of the served workflow the caller may see, or undefined. */
  async #thread(view: EngineView, contextId: string): Promise<ThreadContext | undefined> {
    const thread = await view.getThread(contextId);
    return thread && thread.workflow.id === this.#workflowId && !thread.state.parent
      ? thread
      : undefined;
  }

  async #find(view: EngineView, taskId: unknown): Promise<FoundTask> {
    const contextId = contextOfTask(taskId);
    const thread = contextId === undefined ? undefined : await this.#thread(view, contextId);
    if (!thread) throw taskNotFound(taskId);
    const spans = taskSpans(thread.conversation.getAllMessages());
    const at = spans.findIndex((s) => s.taskId === taskId);
    if (at >= 0) return { thread, span: spans[at], latest: at === spans.length - 1 };
    // Posted behind a turn that still runs: the task is submitted, not started.
    const pending = (await this.#engine.store!.pendingMessages?.(thread.threadId)) ?? [];
    if (pending.some((p) => p.message.metadata?.[TASK_KEY] === taskId))
      return { thread, span: undefined, latest: false };
    throw taskNotFound(taskId);
  }

  #source(view: EngineView, thread: ThreadContext) {
    return {
      thread,
      readAttachment: (digest: string) => view.readAttachment(thread.threadId, digest),
    };
  }

  async #viewOf(
    view: EngineView,
    found: FoundTask,
    taskId: string,
    options: { historyLength?: number | undefined },
  ): Promise<Task> {
    if (found.span)
      return taskView(this.#source(view, found.thread), found.span, found.latest, options);
    return submitted(found.thread.threadId, taskId, []);
  }

  /** The task a begun message is part of, as it is now (a retried message: the task it began). */
  async #current(view: EngineView, begun: Begun, historyLength: number | undefined) {
    const thread = await this.#thread(view, begun.contextId);
    if (!thread) throw taskNotFound(begun.taskId);
    const stored = thread.conversation
      .getAllMessages()
      .find((m) => m.role === 'user' && m.metadata?.[MESSAGE_KEY] === begun.messageId);
    const taskId =
      typeof stored?.metadata?.[TASK_KEY] === 'string' ? stored.metadata[TASK_KEY] : begun.taskId;
    return this.#viewOf(view, await this.#find(view, taskId), taskId, { historyLength });
  }

  /** Checks the message and hands it to the thread: a new task, or one it continues. */
  async #begin(
    view: EngineView,
    params: SendMessageRequest,
    onEvent: Progress | undefined,
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
        return await this.#continue(view, params, message, content, onEvent, context);
      const contextId = message.contextId === '' ? randomUUID() : message.contextId;
      const problem = threadIdProblem(contextId);
      if (problem) throw malformed(`message.contextId: ${problem}`);
      if (message.contextId !== '') {
        const existing = await view.getThread(contextId);
        if (existing && (existing.workflow.id !== this.#workflowId || existing.state.parent))
          throw malformed(`message.contextId ${contextId} is not a conversation of this agent`);
      }
      const taskId = newTaskId(contextId);
      await this.#keepPushConfig(params, taskId, context);
      const first = submitted(contextId, taskId, [{ ...message, contextId, taskId }]);
      const controller = new AbortController();
      const run = this.#followRun(view, context, taskId, onEvent, first);
      const done = view
        .send(
          contextId,
          { content, metadata: { [TASK_KEY]: taskId, [MESSAGE_KEY]: message.messageId } },
          {
            messageId: message.messageId,
            ifBusy: 'queue',
            workflowId: this.#workflowId,
            signal: controller.signal,
            ...(run.onEvent ? { onEvent: run.onEvent } : {}),
          },
        )
        .finally(() => {
          run.release();
          this.#forget(taskId, controller);
        });
      this.#runs.set(taskId, { controller, done });
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

  /** A message to a task that goes on: its answer while it waits, a steer while it works. */
  async #continue(
    view: EngineView,
    params: SendMessageRequest,
    message: Message,
    content: ReturnType<typeof contentOfParts>,
    onEvent: Progress | undefined,
    context: ServerCallContext,
  ): Promise<Begun> {
    const taskId = message.taskId;
    const found = await this.#find(view, taskId);
    const { thread } = found;
    const contextId = thread.threadId;
    if (message.contextId !== '' && message.contextId !== contextId)
      throw malformed(`message.contextId is not the context of task ${taskId}`);
    const first = await this.#viewOf(view, found, taskId, {});
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
    await this.#keepPushConfig(params, taskId, context);
    if (state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      // The answer is claimed before this returns: exactly one answer is taken (another gets
      // RESUME_CONFLICT), and the task reads as working from now on.
      const structured =
        pending?.kind === 'tool-approval' || (pending?.kind === 'user-input' && pending.input);
      const input = data && structured ? data.value : content;
      const run = this.#followRun(view, context, taskId, onEvent, undefined);
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
        this.#forget(taskId, controller);
      });
      this.#runs.set(taskId, { controller, done });
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

  #forget(taskId: string, controller: AbortController): void {
    if (this.#runs.get(taskId)?.controller === controller) this.#runs.delete(taskId);
  }
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function checkHistoryLength(value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0))
    throw malformed(`historyLength must be a whole number, 0 or more, got ${value}`);
}

function noPush(): Error {
  return new PushNotificationNotSupportedError('This agent sends no push notifications');
}

/** A task that has not started: its message waits for the turn before it. */
function submitted(contextId: string, taskId: string, history: Message[]): Task {
  return {
    id: taskId,
    contextId,
    status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
    artifacts: [],
    history,
    metadata: undefined,
  };
}

function isEnding(event: ThreadEvent): boolean {
  return (
    event.type === 'thread:completed' ||
    event.type === 'thread:failed' ||
    event.type === 'thread:cancelled' ||
    event.type === 'thread:paused'
  );
}
