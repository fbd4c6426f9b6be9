import { type Task, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type {
  CheckpointSavedEvent,
  SkeinEmitter,
  ThreadContext,
  ThreadFinishedEvent,
  ThreadPausedEvent,
  ThreadStartedEvent,
} from '@skein/core';
import type { LatestTask } from '../latest-task.js';
import { KeyedQueue } from './keyed-queue.js';

/** What following every run of an engine needs of the push notifications. */
export interface RunHost {
  /** The served workflow: runs of other workflows are not tasks. */
  readonly workflowId: string;
  /** Whether a run this handler started follows thread `threadId` (and pushes its changes). */
  covered(threadId: string): boolean;
  /** The thread's latest task as stored (at `checkpointId`), undefined when it is no task. */
  read(threadId: string, checkpointId?: string): Promise<LatestTask | undefined>;
  /** A change of the task's state, to push to its configs. */
  changed(task: Task, context: ServerCallContext): void;
  /** The thread's latest task could not be read: its change is not pushed. */
  failed(threadId: string, error: unknown): void;
}

/** A run of a top-level thread going on in this engine, as its events told it. */
interface Run {
  /** Whether the thread is one of the served workflow's (false: its events are ignored). */
  served: boolean;
  /** When it started, until its start is pushed (at its first checkpoint: see `followRuns`). */
  startedAt?: string | undefined;
}

const ENDINGS = ['thread:completed', 'thread:failed', 'thread:cancelled', 'thread:paused'] as const;

/** The task at work: its answer (when the store already has it) is not one yet. */
function working(task: Task, timestamp: string): Task {
  return {
    ...task,
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp },
    artifacts: [],
  };
}

/** Whether a claimed pause was a question to the client (the task was input-required). */
function answered(thread: ThreadContext): boolean {
  const kind = thread.state.pending?.kind;
  return kind === 'user-input' || kind === 'tool-approval';
}

/**
 * Pushes the changes of state that runs in this engine make to the served workflow's tasks when
 * no run this handler started hears them (decision 0039): a wait woken by the engine's timers or
 * a signal, the app's own `send` or `resume`, a run taken over by `recover`. It listens to the
 * engine's emitter for the events that matter only (`thread:started`, `checkpoint:saved`, and
 * the four that end or pause a run), of top-level threads. Changes are read from the store:
 *
 * - a turn's start is working, pushed at its first checkpoint (the store then holds the turn's
 *   messages, so the task it belongs to is known: the latest);
 * - a checkpoint saved while no run of the thread goes on here is a claim (an answer, a wake):
 *   working when what was claimed was a question to the client, else no change;
 * - an end or pause is the stored state; a wait on time or an event reads as working, no change.
 *
 * Whether a run this handler started covers the thread is decided once the event has reached
 * every listener (a microtask later): such a run marks itself as it hears the event. Each
 * thread's reads and pushes go in the order of its events. Returns what stops following.
 */
export function followRuns(events: SkeinEmitter, host: RunHost): () => void {
  const runs = new Map<string, Run>();
  const steps = new KeyedQueue();
  const later = (threadId: string, step: () => Promise<void>) =>
    queueMicrotask(() => {
      if (!host.covered(threadId)) steps.add(threadId, step);
    });
  const read = async (threadId: string, checkpointId?: string) => {
    try {
      return await host.read(threadId, checkpointId);
    } catch (error) {
      host.failed(threadId, error);
      return undefined;
    }
  };

  const started = (event: ThreadStartedEvent) => {
    if (event.parentThreadId !== undefined) return;
    runs.set(event.threadId, {
      served: event.workflowId === host.workflowId,
      startedAt: new Date().toISOString(),
    });
  };

  const saved = (event: CheckpointSavedEvent) => {
    if (event.parentThreadId !== undefined) return;
    const { threadId, checkpointId } = event;
    const run = runs.get(threadId);
    if (run) {
      const at = run.startedAt;
      if (!run.served || at === undefined) return;
      run.startedAt = undefined;
      later(threadId, async () => {
        const latest = await read(threadId);
        if (latest) host.changed(working(latest.task, at), latest.context);
      });
      return;
    }
    // No run of the thread goes on here: a claim (a run follows it), a run taken over, an
    // upgrade. Its later checkpoints are not read again until it ends.
    const claimed: Run = { served: true };
    runs.set(threadId, claimed);
    const at = new Date().toISOString();
    later(threadId, async () => {
      const latest = await read(threadId, checkpointId);
      // Not a task of the served workflow: its run is ignored to its end.
      if (!latest) claimed.served = false;
      // Saved with no run to follow (an upgrade): the next checkpoint is read again.
      else if (latest.thread.status !== 'RUNNING') {
        if (runs.get(threadId) === claimed) runs.delete(threadId);
      } else if (answered(latest.thread)) host.changed(working(latest.task, at), latest.context);
    });
  };

  const ended = (event: ThreadFinishedEvent | ThreadPausedEvent) => {
    if (event.parentThreadId !== undefined) return;
    const { threadId } = event;
    const run = runs.get(threadId);
    runs.delete(threadId);
    if (run && !run.served) return;
    const at = new Date().toISOString();
    const startedAt = run?.startedAt;
    later(threadId, async () => {
      const latest = await read(threadId);
      if (!latest) return;
      // It ended before its first checkpoint: its start comes first.
      if (startedAt !== undefined) host.changed(working(latest.task, startedAt), latest.context);
      const status = latest.task.status;
      if (!status || status.state === TaskState.TASK_STATE_WORKING) return;
      host.changed({ ...latest.task, status: { ...status, timestamp: at } }, latest.context);
    });
  };

  events.on('thread:started', started);
  events.on('checkpoint:saved', saved);
  for (const name of ENDINGS) events.on(name, ended);
  return () => {
    events.off('thread:started', started);
    events.off('checkpoint:saved', saved);
    for (const name of ENDINGS) events.off(name, ended);
  };
}
