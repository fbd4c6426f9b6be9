import type { EncodedCheckpoint } from '@skein/core/store-kit';
import type { Pool, PoolClient } from 'pg';
import { query } from './query.js';
import type { Statements } from './statements.js';
import { errorCode, FOREIGN_KEY_VIOLATION } from './translate-error.js';

/**
 * True for a checkpoint the one-statement paths (`saveOnHead`, `saveGroup`) take: not a fork's
 * first, and referring to no attachment. The rest go through `#write`'s transaction, which
 * writes attachments and uses: text steps, the most of them by far, keep their one round trip.
 */
export function isPlain(checkpoint: EncodedCheckpoint): boolean {
  // A checkpoint taking inbox messages checks and moves the thread's mark in a transaction.
  return (
    checkpoint.forkOf === undefined &&
    checkpoint.uses.length === 0 &&
    checkpoint.inboxTaken === null
  );
}

/** Writes a checkpoint's attachments not stored yet and its thread's new uses, in its transaction. */
export async function writeAttachments(
  client: PoolClient,
  sql: Statements,
  thread: number,
  checkpoint: EncodedCheckpoint,
): Promise<void> {
  const { attachments, uses } = checkpoint;
  if (attachments.length > 0)
    await query(client, sql.insertAttachments, [
      attachments.map((a) => a.digest),
      attachments.map((a) => a.mediaType),
      attachments.map((a) => a.bytes.length),
      attachments.map((a) => a.width ?? null),
      attachments.map((a) => a.height ?? null),
      attachments.map((a) => a.bytes),
    ]);
  if (uses.length > 0)
    await query(client, sql.insertUses, [
      thread,
      uses.map((u) => u.digest),
      uses.map((u) => u.position),
    ]);
}

/**
 * Deletes those of `digests` no thread uses any more, after a delete took its uses. A save
 * using one again at this moment holds its row: the delete waits, then the key from the new use
 * refuses it, and the attachment rightly stays. Should this never run (the process died between),
 * an unused attachment is left: room taken, nothing lost.
 */
export async function dropUnused(pool: Pool, sql: Statements, digests: string[]): Promise<void> {
  if (digests.length === 0) return;
  try {
    await query(pool, sql.deleteUnusedAttachments, [digests]);
  } catch (error) {
    if (errorCode(error) !== FOREIGN_KEY_VIOLATION) throw error;
  }
}
