import { CheckpointConflictError, CheckpointNotFoundError } from '@skein/spec';
import type { EncodedCheckpoint } from './checkpoint-codec.js';

/** A thread's row as a save reads it: where its stored conversation ends, its latest checkpoint. */
export interface ThreadHeadRow {
  readonly message_count: number;
  readonly log_count: number;
  readonly last_checkpoint_id: string;
}

/**
 * The continuity rule every store applies to a save, inside its transaction: the delta starts
 * where the stored conversation ends, and the parent is the thread's latest checkpoint (`thread`
 * undefined: the thread has none yet). Otherwise `CheckpointConflictError`.
 */
export function checkContinues(
  checkpoint: EncodedCheckpoint,
  thread: ThreadHeadRow | undefined,
): void {
  const { threadId, from } = checkpoint;
  const stored = { messages: thread?.message_count ?? 0, log: thread?.log_count ?? 0 };
  if (from.messages !== stored.messages || from.log !== stored.log)
    throw new CheckpointConflictError(threadId, stored, from);
  // A stale writer (rebuilt from an older checkpoint that happens to cover as many messages)
  // must not add a second head to the thread.
  const latest = thread?.last_checkpoint_id ?? undefined;
  if ((checkpoint.parentId ?? undefined) !== latest)
    throw new CheckpointConflictError(threadId, stored, from, {
      expected: latest,
      got: checkpoint.parentId ?? undefined,
    });
}

/** Where a fork's origin checkpoint left its conversation, as the store found it. */
export interface ForkBaseRow {
  readonly message_count: number;
  readonly log_count: number;
}

/**
 * The continuity rule for a fork's first checkpoint (`checkpoint.forkOf` set): the thread must not
 * exist yet (then `checkContinues` refuses as for any first checkpoint of a taken id), the origin
 * checkpoint must be stored (`base`; otherwise `CheckpointNotFoundError`), and the delta starts
 * where the origin's conversation ended (otherwise `CheckpointConflictError`).
 */
export function checkForkContinues(
  checkpoint: EncodedCheckpoint,
  thread: ThreadHeadRow | undefined,
  base: ForkBaseRow | undefined,
): void {
  const { forkOf } = checkpoint;
  if (!forkOf || thread) {
    checkContinues(checkpoint, thread);
    return;
  }
  if (!base) throw new CheckpointNotFoundError(forkOf.threadId, forkOf.checkpointId);
  const { threadId, from } = checkpoint;
  if (from.messages !== base.message_count || from.log !== base.log_count)
    throw new CheckpointConflictError(
      threadId,
      { messages: base.message_count, log: base.log_count },
      from,
    );
}
