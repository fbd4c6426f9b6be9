import { type Task, TaskState } from '@a2a-js/sdk';
import type { ThreadEvent, ThreadEventListener } from '@skein/core';

/** What a watcher needs of the task it follows. */
export interface WatchedTask {
  /** The task as the store has it now. */
  read(): Promise<Task>;
  /** A change of its state, to push: called once per change, in order. */
  changed(task: Task): void;
  /** The task could not be read: the change is not pushed. */
  failed(error: unknown): void;
}

const ENDINGS: ReadonlySet<ThreadEvent['type']> = new Set([
  'thread:completed',
  'thread:failed',
  'thread:cancelled',
  'thread:paused',
]);

/** The task at work: its answer (when the store already has it) is not one yet. */
function working(task: Task, timestamp: string): Task {
  return {
    ...task,
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp },
    artifacts: [],
  };
}

/**
 * The listener of a run this process started for a task (its `onEvent`), turning the thread's
 * events into the task's changes of state: `thread:started` (or, for a run that an answer
 * resumed, its first event) is working; the run's end or pause is read from the store, where it
 * is saved before the event (completed, failed, canceled, input-required — a pause on time or an
 * event reads as working, which is no change). Each state is handed on once, in order: reads are
 * chained, and a state equal to the last one handed on is not a change.
 */
export function taskPushWatcher(task: WatchedTask, resumed: boolean): ThreadEventListener {
  // A resumed run starts from the question it answers.
  let last: TaskState | undefined = resumed ? TaskState.TASK_STATE_INPUT_REQUIRED : undefined;
  let heard = false;
  let steps = Promise.resolve();
  const step = (atWork: boolean) => {
    // When it changed, not when the store was read.
    const timestamp = new Date().toISOString();
    steps = steps.then(async () => {
      try {
        const read = await task.read();
        const now = atWork ? working(read, timestamp) : read;
        const state = now.status?.state;
        if (state === undefined || state === last) return;
        last = state;
        task.changed({
          ...now,
          status: { state, message: now.status?.message, timestamp },
        });
      } catch (error) {
        task.failed(error);
      }
    });
  };
  return (event) => {
    // A branch's or a child thread's own start and end are not the task's.
    if ((event as { parentThreadId?: string }).parentThreadId !== undefined) return;
    const first = !heard;
    heard = true;
    if (event.type === 'thread:started' || (resumed && first)) step(true);
    if (ENDINGS.has(event.type)) step(false);
  };
}
