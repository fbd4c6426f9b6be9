import { StreamResponse, type Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { SkeinEngine, ThreadEventListener } from '@skein/core';
import { latestTask } from '../latest-task.js';
import { contextOfTask } from '../task-id.js';
import { KeyedQueue } from './keyed-queue.js';
import { PushConfigs } from './push-configs.js';
import { A2APushError } from './push-error.js';
import type { ResolvedPushOptions } from './push-options.js';
import { deliverPush } from './push-sender.js';
import { followRuns } from './run-follower.js';
import { taskPushWatcher } from './task-push-watcher.js';

/** A run the handler started, followed for its task's pushes. */
export interface FollowedRun {
  /** Its `onEvent`. */
  readonly onEvent: ThreadEventListener;
  /** Call once the call that started it is over: its thread is left to `watchRuns` again. */
  release(): void;
}

/** A followed run of a thread, once it has heard an event of it. */
interface Mark {
  heard: boolean;
}

/**
 * Push notifications of a served agent (decision 0039): the configs of its tasks, and the POSTs
 * of their changes of state. A change is pushed from the process whose run made it, to every
 * config the task has when it changed, each config's pushes in order; the turn never waits for
 * them, and a push given up on goes to `onPushError`. A run the handler started is followed by
 * its own listener (`followRun`); any other run of the engine (`watchRuns`) by the engine's events.
 */
export class PushNotifications {
  readonly configs: PushConfigs;
  readonly #options: ResolvedPushOptions;
  /** Per task: reading its configs, so each change is handed to them in order. */
  readonly #loads = new KeyedQueue();
  /** Per task and config: its pushes, one after another. */
  readonly #deliveries = new KeyedQueue();
  /** Per thread: the runs `followRun` hears, which `watchRuns` leaves to them (no push twice). */
  readonly #followed = new Map<string, Set<Mark>>();

  constructor(options: ResolvedPushOptions) {
    this.#options = options;
    this.configs = new PushConfigs(options.store, options.allowUrl);
  }

  /**
   * The `onEvent` of a run this handler starts for `taskId` (for `resumed`, the run an answer to
   * its question started), and its `release` for when the call is over. `read` reads the task as
   * the caller sees it; `context` is the caller's, whose configs the store gives.
   */
  followRun(
    taskId: string,
    context: ServerCallContext,
    read: () => Promise<Task>,
    resumed: boolean,
  ): FollowedRun {
    const watcher = taskPushWatcher(
      {
        read,
        changed: (task) => this.#notify(task, context),
        failed: (error) =>
          this.#report(
            new A2APushError({ taskId, attempts: 0 }, 'the task could not be read', {
              cause: error,
            }),
          ),
      },
      resumed,
    );
    const threadId = contextOfTask(taskId) ?? '';
    let marks = this.#followed.get(threadId);
    if (!marks) {
      marks = new Set();
      this.#followed.set(threadId, marks);
    }
    // Heard, not merely started: a message that waits behind another's turn hears nothing of
    // it (the engine follows it from the turn that takes it), and that turn is watchRuns'.
    const mark: Mark = { heard: false };
    marks.add(mark);
    return {
      onEvent: (event) => {
        mark.heard = true;
        watcher(event);
      },
      release: () => {
        marks.delete(mark);
        if (marks.size === 0 && this.#followed.get(threadId) === marks)
          this.#followed.delete(threadId);
      },
    };
  }

  /**
   * Follows every run of `workflowId` in `engine` that no `followRun` hears — a wait woken by the
   * engine, the app's own `send` or `resume`, a run `recover` took over — and pushes its task's
   * changes to the configs of the thread's caller (see `followRuns`). Returns what stops it.
   */
  watchRuns(engine: SkeinEngine, workflowId: string): () => void {
    return followRuns(engine.events, {
      workflowId,
      covered: (threadId) => {
        for (const mark of this.#followed.get(threadId) ?? []) if (mark.heard) return true;
        return false;
      },
      read: (threadId, checkpointId) => latestTask(engine, workflowId, threadId, checkpointId),
      changed: (task, context) => this.#notify(task, context),
      failed: (threadId, error) =>
        this.#report(
          new A2APushError(
            { taskId: '', attempts: 0 },
            `the latest task of context ${threadId} could not be read`,
            { cause: error },
          ),
        ),
    });
  }

  /** Hands `task` to each of its configs' queues: the same JSON the SDK's sender posts. */
  #notify(task: Task, context: ServerCallContext): void {
    const body = JSON.stringify(StreamResponse.toJSON({ payload: { $case: 'task', value: task } }));
    const taskId = task.id;
    this.#loads.add(taskId, async () => {
      let configs: Awaited<ReturnType<PushConfigs['list']>>;
      try {
        configs = await this.configs.list(taskId, context);
      } catch (error) {
        const problem = 'its configs could not be read from the store';
        this.#report(new A2APushError({ taskId, attempts: 0 }, problem, { cause: error }));
        return;
      }
      for (const config of configs)
        this.#deliveries.add(`${taskId}\n${config.id}`, () =>
          deliverPush(taskId, config, body, this.#options).catch((error: unknown) =>
            this.#report(error),
          ),
        );
    });
  }

  #report(error: unknown): void {
    try {
      this.#options.onPushError(
        A2APushError.isInstance(error)
          ? error
          : new A2APushError({ taskId: '', attempts: 0 }, String(error), { cause: error }),
      );
    } catch {
      // A listener that throws must not become an unhandled rejection of a push.
    }
  }
}
