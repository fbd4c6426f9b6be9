import { type Task, TaskState } from '@a2a-js/sdk';
import type { ThreadEvent } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { taskPushWatcher } from './task-push-watcher.js';

const { TASK_STATE_WORKING: WORKING, TASK_STATE_INPUT_REQUIRED: INPUT_REQUIRED } = TaskState;
const { TASK_STATE_COMPLETED: COMPLETED } = TaskState;

const task = (state: TaskState): Task => ({
  id: 'c~t',
  contextId: 'c',
  status: { state, message: undefined, timestamp: undefined },
  artifacts:
    state === COMPLETED
      ? [
          {
            artifactId: 'a',
            name: '',
            description: '',
            parts: [],
            metadata: undefined,
            extensions: [],
          },
        ]
      : [],
  history: [],
  metadata: undefined,
});

const event = (type: string, fields: object = {}) =>
  ({ type, threadId: 'c', ...fields }) as unknown as ThreadEvent;

/** A watcher over a store that reads as `stored` says at each read. */
function watch(stored: TaskState[], resumed = false) {
  const changes: Task[] = [];
  const failures: unknown[] = [];
  let reads = 0;
  const listener = taskPushWatcher(
    {
      read: async () => task(stored[Math.min(reads++, stored.length - 1)]!),
      changed: (t) => changes.push(t),
      failed: (e) => failures.push(e),
    },
    resumed,
  );
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { listener, changes, failures, settled };
}

describe('a push watcher', () => {
  it('turns a run into working, then its end, each once and in order', async () => {
    // The store already has the answer when the start is read: it still reads as at work.
    const { listener, changes, settled } = watch([COMPLETED, COMPLETED]);
    listener(event('message:added'));
    listener(event('thread:started'));
    listener(event('message:added'));
    listener(event('thread:completed'));
    await settled();
    expect(changes.map((t) => t.status?.state)).toEqual([WORKING, COMPLETED]);
    expect(changes[0]?.artifacts).toEqual([]);
    expect(changes[1]?.artifacts).toHaveLength(1);
    expect(changes.every((t) => typeof t.status?.timestamp === 'string')).toBe(true);
  });

  it('takes a pause on time as no change, and a branch’s events as not the task’s', async () => {
    const { listener, changes, settled } = watch([WORKING, WORKING, COMPLETED]);
    listener(event('thread:started'));
    listener(event('thread:completed', { parentThreadId: 'c', branchPath: 'b' }));
    listener(event('thread:paused', { reason: 'sleep' }));
    listener(event('thread:completed'));
    await settled();
    expect(changes.map((t) => t.status?.state)).toEqual([WORKING, COMPLETED]);
  });

  it('a run an answer resumed is at work from its first event, having asked before', async () => {
    const { listener, changes, settled } = watch([INPUT_REQUIRED, INPUT_REQUIRED]);
    listener(event('thread:started'));
    listener(event('thread:paused', { reason: 'user-input' }));
    await settled();
    expect(changes.map((t) => t.status?.state)).toEqual([WORKING, INPUT_REQUIRED]);
    const resumed = watch([INPUT_REQUIRED], true);
    resumed.listener(event('thread:paused', { reason: 'user-input' }));
    await resumed.settled();
    // Its first event is a change to working; a pause that reads as the same question follows.
    expect(resumed.changes.map((t) => t.status?.state)).toEqual([WORKING, INPUT_REQUIRED]);
  });

  it('reports a read that fails, and goes on with the next change', async () => {
    const changes: Task[] = [];
    const failures: unknown[] = [];
    let reads = 0;
    const listener = taskPushWatcher(
      {
        read: async () => {
          if (reads++ === 0) throw new Error('store down');
          return task(COMPLETED);
        },
        changed: (t) => changes.push(t),
        failed: (e) => failures.push(e),
      },
      false,
    );
    listener(event('thread:started'));
    listener(event('thread:completed'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(failures).toHaveLength(1);
    expect(changes.map((t) => t.status?.state)).toEqual([COMPLETED]);
  });
});
