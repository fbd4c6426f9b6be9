import {
  checkContinues,
  checkForkContinues,
  checkInboxTaken,
  type EncodedCheckpoint,
  type StoreIdentity,
  storeCorrupt,
} from '@skein/core/store-kit';
import { checkLeaseOwner } from '@skein/spec';
import type { Statements } from './statements.js';

/**
 * Writes one checkpoint inside the store's write transaction (IMMEDIATE: no other connection can
 * take the lease or write the thread between the checks and the commit). Every refusal (the
 * continuity rule, a fork's origin, the lease fence) is thrown before anything is written, so a
 * refused checkpoint leaves nothing to undo; what is thrown after the first write is SQLite's (a
 * broken constraint, I/O), and the caller undoes it.
 */
export function writeCheckpoint(
  sql: Statements,
  checkpoint: EncodedCheckpoint,
  store: StoreIdentity,
): void {
  checkTaken(sql, checkpoint);
  const key = moveHead(sql, checkpoint) ?? createThread(sql, checkpoint, store);
  if (checkpoint.inboxTaken !== null) sql.setInboxTaken.run(checkpoint.inboxTaken, key);
  const { from } = checkpoint;
  let position = from.messages;
  for (const body of checkpoint.messages) sql.insertMessage.run(key, position++, body);
  position = from.log;
  for (const body of checkpoint.log) sql.insertLogEntry.run(key, position++, body);
  for (const a of checkpoint.attachments)
    sql.insertAttachment.run(
      a.digest,
      a.mediaType,
      a.bytes.length,
      a.width ?? null,
      a.height ?? null,
      a.bytes,
    );
  for (const use of checkpoint.uses) sql.insertUse.run(key, use.digest, use.position, use.digest);
  sql.insertCheckpoint.run(
    key,
    checkpoint.id,
    checkpoint.sequence,
    checkpoint.parentId,
    checkpoint.createdAt,
    checkpoint.status,
    checkpoint.step,
    checkpoint.currentNodeId,
    from.messages + checkpoint.messages.length,
    from.log + checkpoint.log.length,
    checkpoint.state,
  );
}

/**
 * A checkpoint taking inbox messages: refused before anything is written (decision 0036). A stale
 * writer's mark is below what the thread has taken since: the continuity rule goes first, so it
 * is refused as the stale writer it is (`CHECKPOINT_CONFLICT`, which a send survives).
 */
function checkTaken(sql: Statements, checkpoint: EncodedCheckpoint): void {
  if (checkpoint.inboxTaken === null) return;
  const thread = sql.thread.get(checkpoint.threadId);
  if (thread) checkContinues(checkpoint, thread);
  const extent = thread ? sql.inboxExtent.get(thread.id) : undefined;
  checkInboxTaken(checkpoint.threadId, checkpoint.inboxTaken, extent ?? { taken: 0, last: 0 });
}

/** The head's new columns, as `moveHead` and `updateThread` both set them. */
function headValues(checkpoint: EncodedCheckpoint) {
  const { from } = checkpoint;
  return [
    checkpoint.workflowId,
    checkpoint.workflowVersion,
    checkpoint.status,
    checkpoint.step,
    checkpoint.createdAt,
    checkpoint.id,
    from.messages + checkpoint.messages.length,
    from.log + checkpoint.log.length,
    checkpoint.wakeAt,
    checkpoint.waitsFor,
  ] as const;
}

/**
 * The common case, a stored thread going on by one checkpoint: checked and moved in one statement
 * (the checks are the rule `createThread` applies, in SQL). The thread's key, or undefined when
 * nothing was written: no thread yet, or a checkpoint the rule refuses.
 */
function moveHead(sql: Statements, checkpoint: EncodedCheckpoint): number | undefined {
  // A checkpoint without a parent starts a thread: there is no head to move. (A fork's first
  // checkpoint finds no row, unless its thread exists: then the rule is the same for it.)
  if (checkpoint.parentId === null) return undefined;
  const { from } = checkpoint;
  const owner = checkpoint.owner ?? null;
  return sql.moveHead.get(
    ...headValues(checkpoint),
    checkpoint.threadId,
    from.messages,
    from.log,
    checkpoint.parentId,
    owner,
    owner,
  )?.id;
}

/**
 * A checkpoint `moveHead` did not write: reads what the checks need and throws the refusal, or, for
 * a thread's first checkpoint, creates its row (a fork's linked to the conversation it continues:
 * no row of it is copied) and returns its key.
 */
function createThread(
  sql: Statements,
  checkpoint: EncodedCheckpoint,
  store: StoreIdentity,
): number {
  const { threadId, forkOf } = checkpoint;
  if (checkpoint.owner !== undefined)
    checkLeaseOwner(threadId, sql.lease.get(threadId), checkpoint.owner);
  const thread = sql.thread.get(threadId);
  const base =
    forkOf && !thread ? sql.forkBase.get(forkOf.threadId, forkOf.checkpointId) : undefined;
  checkForkContinues(checkpoint, thread, base);
  // The checks passed for a stored thread whose head the same rule in SQL did not move.
  if (thread)
    throw storeCorrupt(
      store,
      `thread ${threadId} refused checkpoint ${checkpoint.id} for no reason the store knows`,
    );
  const key = Number(
    sql.insertThread.run(
      threadId,
      checkpoint.workflowId,
      checkpoint.workflowVersion,
      checkpoint.status,
      checkpoint.step,
      checkpoint.createdAt,
      checkpoint.id,
    ).lastInsertRowid,
  );
  if (base) {
    sql.setBase.run(base.thread, base.message_count, base.log_count, key);
    // The fork reads the attachments of the messages it continues, and no later ones.
    sql.copyUses.run(key, base.thread, base.message_count);
  }
  sql.updateThread.run(...headValues(checkpoint), key);
  return key;
}
