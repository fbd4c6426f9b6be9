import { findNonJsonValue, InvalidArgumentError, SkeinError } from '@skein/spec';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { WarningEvent } from '../events/event-map.js';
import { eventMatches } from '../nodes/event-match.js';
import { signalledBranch } from '../pauses/branches.js';
import type { ResumeWith, StartedRun } from '../run/thread-executor.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { eventWaitOf } from '../thread/wake-of.js';
import { lostClaim, type WakeOptions } from '../time/waker.js';

/** What delivering an event needs from the engine. */
export interface SignalHost {
  readonly store: CheckpointStore;
  load(threadId: string): Promise<ThreadContext | undefined>;
  start(thread: ThreadContext, resume: ResumeWith, options?: WakeOptions): Promise<StartedRun>;
  warn(warning: WarningEvent): void;
}

/** What `signal` did with an event. */
export interface SignalResult {
  readonly event: string;
  /** The threads that took it, each exactly once (their runs are in `runs`). */
  readonly delivered: readonly string[];
  /** The runs it started, going on. */
  readonly runs: readonly StartedRun[];
  /** Threads that waited for the event but whose `match` failed on the payload. */
  readonly failedMatches: readonly string[];
}

/** Checks a signal's name and payload (stored with the wait it answers, so plain JSON). */
export function checkSignal(name: unknown, payload: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '')
    throw new InvalidArgumentError('name', 'the event name must be a non-empty string');
  const found = findNonJsonValue(payload, 'payload');
  if (found)
    throw new InvalidArgumentError(
      'payload',
      `the payload must be plain JSON: ${found.path} is ${found.reason}`,
    );
}

/**
 * Claims one thread's event wait with `payload` when its `match` holds. The claim is the
 * checkpoint claim of a resume, so however many engines deliver the event at once, the thread
 * takes it once; a thread someone else claimed first is left alone (undefined). A branch that
 * waits is reached through its top-level thread, which is resumed with `{ branch, input }`: its
 * claim is the top-level thread's.
 */
export async function deliverTo(
  host: SignalHost,
  thread: ThreadContext,
  name: string,
  payload: unknown,
): Promise<StartedRun | 'no-match' | undefined> {
  if (eventWaitOf(thread.state) !== name) return undefined;
  if (!eventMatches(thread, thread.state.pending!.nodeId, payload)) return 'no-match';
  const parent = thread.state.parent;
  let target = thread;
  let input: unknown = payload;
  if (parent) {
    const root = await host.load(parent.rootThreadId);
    const wait = signalledBranch(root?.state.pending, thread.threadId);
    if (!root || !wait) return undefined;
    target = root;
    input = { branch: wait.path, input: payload };
  }
  try {
    return await host.start(target, { input, wake: true });
  } catch (error) {
    if (lostClaim(error)) return undefined;
    throw error;
  }
}

/**
 * Delivers event `name` to every stored thread WAITING for it whose match holds. An event no
 * thread takes is reported (an empty `delivered`, and a `warning` `EVENT_UNDELIVERED`) and not
 * kept: a wait sees the events sent after it began (decision 0019).
 */
export async function deliverSignal(
  host: SignalHost,
  name: string,
  payload: unknown,
): Promise<SignalResult> {
  checkSignal(name, payload);
  const delivered: string[] = [];
  const runs: StartedRun[] = [];
  const failedMatches: string[] = [];
  // The store's index: the threads whose latest checkpoint waits for this event.
  for (const threadId of await host.store.listWaiting(name)) {
    const thread = await host.load(threadId);
    if (!thread) continue;
    let outcome: Awaited<ReturnType<typeof deliverTo>>;
    try {
      outcome = await deliverTo(host, thread, name, payload);
    } catch (error) {
      // A match that cannot be evaluated on this payload: reported for this thread, not thrown.
      if (!SkeinError.hasCode(error, 'EXPRESSION_EVALUATION')) throw error;
      failedMatches.push(threadId);
      host.warn({
        threadId,
        code: error.code,
        message: error.message,
        details: { event: name },
      });
      continue;
    }
    if (outcome === undefined || outcome === 'no-match') continue;
    outcome.result.catch(() => undefined);
    delivered.push(threadId);
    runs.push(outcome);
    // A branch's delivery resumed its top-level thread: the next branch of that thread is
    // claimed from where this run leaves it (waiting again), not from where it was.
    if (thread.state.parent) await outcome.result.catch(() => undefined);
  }
  if (delivered.length === 0)
    host.warn({
      code: 'EVENT_UNDELIVERED',
      message: `Event "${name}" was delivered to no thread: none waits for it${failedMatches.length ? ' with a match that holds' : ''}`,
      details: { event: name },
    });
  return { event: name, delivered, runs, failedMatches };
}
