import { randomUUID } from 'node:crypto';
import {
  CheckpointNotFoundError,
  checkThreadId,
  InvalidArgumentError,
  type LLMMessage,
} from '@skein/spec';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { FromCheckpointOptions, ThreadBuilder } from '../thread/thread-builder.js';
import type { ThreadContext } from '../thread/thread-context.js';

/** What `engine.fork` changes at the fork. */
export interface ForkChanges {
  /** The checkpoint to fork from (default the thread's latest). */
  readonly at?: string;
  /** The new thread's id (default a random UUID). */
  readonly threadId?: string;
  /** Variables set on the fork (merged over the checkpoint's). */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Messages added to the fork's conversation after the checkpoint's. */
  readonly messages?: readonly LLMMessage[];
  /** Dynamic tools not in the engine's registry, to re-attach by name. */
  readonly dynamicTools?: FromCheckpointOptions['dynamicTools'];
}

/**
 * A new thread made from a stored checkpoint of another (an id already taken is refused by the
 * store at the fork's first checkpoint, `CHECKPOINT_CONFLICT`, however the forks raced): the state and the conversation (its
 * batches included) as they were at that checkpoint and nothing after, `forkedFrom` linking it
 * back, then `changes` applied — through the reducer and the conversation log, as any change is.
 * Nothing is stored yet. Its first checkpoint names the checkpoint it continues and holds only the
 * changes: the store shares the conversation up to the fork rather than copying it. The fork
 * belongs to whom the thread does; given a `principal`, a thread of another is not found.
 */
export async function forkThread(
  store: CheckpointStore,
  builder: ThreadBuilder,
  threadId: string,
  changes: ForkChanges,
  principal?: string,
): Promise<ThreadContext> {
  const newId =
    changes.threadId === undefined ? randomUUID() : checkThreadId(changes.threadId, 'threadId');
  if (newId === threadId)
    throw new InvalidArgumentError('threadId', 'a fork needs a thread id of its own');
  const stored = await store.load(threadId, changes.at);
  // A thread of another principal (or of none) is, to a principal, one that does not exist.
  if (!stored || (principal !== undefined && stored.state.principal !== principal))
    throw new CheckpointNotFoundError(threadId, changes.at);
  if (stored.state.parent)
    throw new InvalidArgumentError(
      'threadId',
      `thread ${threadId} is a branch of ${stored.state.parent.threadId}: fork the top-level thread`,
    );
  const thread = builder.fromCheckpoint(stored, {
    forkAs: newId,
    ...(changes.dynamicTools ? { dynamicTools: changes.dynamicTools } : {}),
  });
  thread.dispatch({ type: 'forked', from: { threadId, checkpointId: stored.checkpoint.id } });
  if (changes.variables !== undefined) thread.setVariables(changes.variables);
  if (changes.messages !== undefined) {
    if (!Array.isArray(changes.messages))
      throw new InvalidArgumentError('messages', 'messages must be an array of messages');
    for (const message of changes.messages) thread.conversation.addMessage(message);
  }
  return thread;
}
