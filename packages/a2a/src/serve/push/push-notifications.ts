import { StreamResponse, type Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { ThreadEventListener } from '@skein/core';
import { KeyedQueue } from './keyed-queue.js';
import { PushConfigs } from './push-configs.js';
import { A2APushError } from './push-error.js';
import type { ResolvedPushOptions } from './push-options.js';
import { deliverPush } from './push-sender.js';
import { taskPushWatcher } from './task-push-watcher.js';

/**
 * Push notifications of a served agent (decision 0039): the configs of its tasks, and the POSTs
 * of their changes of state. A change is pushed from the process whose run made it, to every
 * config the task has when it changed, each config's pushes in order; the turn never waits for
 * them, and a push given up on goes to `onPushError`.
 */
export class PushNotifications {
  readonly configs: PushConfigs;
  readonly #options: ResolvedPushOptions;
  /** Per task: reading its configs, so each change is handed to them in order. */
  readonly #loads = new KeyedQueue();
  /** Per task and config: its pushes, one after another. */
  readonly #deliveries = new KeyedQueue();

  constructor(options: ResolvedPushOptions) {
    this.#options = options;
    this.configs = new PushConfigs(options.store, options.allowUrl);
  }

  /**
   * The `onEvent` of a run this process starts for `taskId` (for `resumed`, the run an answer
   * to its question started). `read` reads the task as the caller sees it; `context` is the
   * caller's, whose configs the store gives.
   */
  follow(
    taskId: string,
    context: ServerCallContext,
    read: () => Promise<Task>,
    resumed: boolean,
  ): ThreadEventListener {
    return taskPushWatcher(
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
