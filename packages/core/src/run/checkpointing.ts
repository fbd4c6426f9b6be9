import { type ConversationDelta, SNAPSHOT_VERSION } from '@skein/conversation';
import { type LLMMessage, SkeinError } from '@skein/spec';
import type { Checkpoint, CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { ThreadError } from '../errors/thread-error.js';
import type { SkeinEmitter } from '../events/emitter.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { eventWaitOf, wakeOf } from '../thread/wake-of.js';
import type { IsoClock } from '../util/iso-clock.js';
import { resultOf, serializeError, type ThreadResult } from './thread-result.js';

/** Internal: a store refused a checkpoint; carries the store's error to the run loop. */
export class SaveFailure extends Error {
  constructor(readonly reason: unknown) {
    super('checkpoint save failed');
  }
}

const NO_MESSAGES: readonly LLMMessage[] = Object.freeze([]);
const NO_ENTRIES: ConversationDelta['log'] = Object.freeze([]);

/** The conversation added since the last checkpoint; most nodes (ROUTE, END…) add none. */
function conversationDelta(thread: ThreadContext): ConversationDelta {
  const from = thread.record.checkpointCursor;
  const now = thread.conversationCursor();
  if (now.messages === from.messages && now.log === from.log)
    return { version: SNAPSHOT_VERSION, from, messages: NO_MESSAGES, log: NO_ENTRIES };
  return thread.conversationDeltaSince(from);
}

/**
 * What a public call throws when a save it made outside a run was refused: the store's own typed
 * error (a `CHECKPOINT_CONFLICT` or `THREAD_LEASED` race lost, a `StoreError`), or
 * `CHECKPOINT_SAVE_FAILED` around anything else a store threw. Never the internal `SaveFailure`.
 */
export function saveRefusal(thread: ThreadContext, error: unknown): unknown {
  const reason = error instanceof SaveFailure ? error.reason : error;
  return SkeinError.isInstance(reason)
    ? reason
    : ThreadError.checkpointSaveFailed(thread.threadId, thread.lastCheckpointId, reason);
}

/** The next checkpoint of `thread`: its state and the conversation since the previous one. */
function nextCheckpoint(
  thread: ThreadContext,
  conversation: ConversationDelta,
  clock: IsoClock | undefined,
): Checkpoint {
  const sequence = thread.record.checkpointSequence + 1;
  const { owner, forkOf } = thread.record;
  const wake = wakeOf(thread.state);
  const waitsFor = eventWaitOf(thread.state);
  const taken = thread.state.inboxTaken;
  return {
    id: `${thread.threadId}:${sequence}`,
    threadId: thread.threadId,
    sequence,
    parentId: thread.lastCheckpointId,
    createdAt: clock ? clock.now() : new Date().toISOString(),
    state: thread.state,
    conversation,
    ...(owner === undefined ? {} : { owner }),
    ...(forkOf === undefined ? {} : { forkOf }),
    // The store indexes it: recovering reads the wakes there, not every waiting thread.
    ...(wake === undefined || Number.isNaN(wake.at) ? {} : { wakeAt: wake.at }),
    ...(waitsFor === undefined ? {} : { waitsFor }),
    // Only when it moved: the store marks the messages taken with this save (decision 0036).
    ...(taken === undefined || taken === thread.record.inboxMarked ? {} : { inboxTaken: taken }),
  };
}

/** Records on the thread a checkpoint the store accepted: the next one continues from it. */
function checkpointSaved(
  thread: ThreadContext,
  emitter: SkeinEmitter,
  checkpoint: Checkpoint,
): void {
  const { from, messages, log } = checkpoint.conversation;
  const upTo = from.messages + messages.length;
  const logUpTo = from.log + log.length;
  // Usually the conversation's own cursor: nothing is added between the delta and the save.
  const now = thread.conversationCursor();
  const cursor =
    now.messages === upTo && now.log === logUpTo ? now : { messages: upTo, log: logUpTo };
  thread.record.saved(checkpoint.id, checkpoint.sequence, cursor, checkpoint.state);
  emitter.emit('checkpoint:saved', {
    threadId: thread.threadId,
    checkpointId: checkpoint.id,
    step: checkpoint.state.step,
  });
}

/** Saves and records the next checkpoint; a refusal rejects with `SaveFailure`. */
export function saveCheckpoint(
  store: CheckpointStore,
  thread: ThreadContext,
  emitter: SkeinEmitter,
  conversation: ConversationDelta | undefined = undefined,
  /** The run's clock (a save per step); a save outside a run formats the time itself. */
  clock?: IsoClock,
): Promise<void> {
  const checkpoint = nextCheckpoint(thread, conversation ?? conversationDelta(thread), clock);
  let saved: Promise<void>;
  try {
    saved = store.save(checkpoint);
  } catch (error) {
    return Promise.reject(new SaveFailure(error));
  }
  return saved.then(
    () => checkpointSaved(thread, emitter, checkpoint),
    (error: unknown) => {
      throw new SaveFailure(error);
    },
  );
}

/**
 * A store refused a checkpoint. The thread goes back to its last stored checkpoint (what the
 * store and memory agree on) and ends FAILED — or PAUSED again when that checkpoint was waiting
 * for input — with a `ThreadError` (`CHECKPOINT_SAVE_FAILED`), recorded in the store when it
 * takes a checkpoint again. A stale writer (`CHECKPOINT_CONFLICT`), or one whose lease another
 * process took over (`THREAD_LEASED`), is not recorded: the store's thread belongs to someone
 * else; the error is thrown.
 */
export async function saveFailed(
  store: CheckpointStore,
  thread: ThreadContext,
  emitter: SkeinEmitter,
  reason: unknown,
  steps: number,
): Promise<ThreadResult> {
  const saved = thread.record.lastSaved!;
  const lastGood = thread.lastCheckpointId;
  const now = thread.conversationCursor();
  if (now.messages !== saved.cursor.messages || now.log !== saved.cursor.log)
    thread.conversation.revertTo(saved.cursor);
  thread.dispatch({ type: 'restored', state: saved.state });
  const conflict =
    SkeinError.hasCode(reason, 'CHECKPOINT_CONFLICT') ||
    SkeinError.hasCode(reason, 'THREAD_LEASED');
  const error = conflict
    ? reason
    : ThreadError.checkpointSaveFailed(thread.threadId, lastGood, reason);
  const was = saved.state.status;
  const status: 'PAUSED' | 'WAITING' | 'FAILED' =
    was === 'PAUSED' || was === 'WAITING' ? was : 'FAILED';
  thread.dispatch({ type: 'finished', status, error: serializeError(error) });
  if (conflict) throw error;
  // The record holds the conversation up to where the thread went back to: nothing new when
  // a checkpoint was stored before, everything the thread was built with when none was.
  const from = thread.record.checkpointCursor;
  const since = thread.conversationDeltaSince(from);
  try {
    await saveCheckpoint(store, thread, emitter, {
      version: SNAPSHOT_VERSION,
      from,
      messages: since.messages.slice(0, saved.cursor.messages - from.messages),
      log: since.log.slice(0, saved.cursor.log - from.log),
    });
  } catch {
    // The store is still failing: memory alone knows; the error says where to go on from.
  }
  if (status === 'FAILED')
    emitter.emit('thread:failed', {
      threadId: thread.threadId,
      status,
      steps: thread.state.step,
      error: { code: error.code, message: error.message },
    });
  else
    emitter.emit('warning', {
      threadId: thread.threadId,
      code: error.code,
      message: error.message,
    });
  return resultOf(thread, status, steps, error);
}
