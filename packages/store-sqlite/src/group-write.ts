import type { EncodedCheckpoint, StoreIdentity } from '@skein/core/store-kit';
import { type LeaseRequest, SkeinError } from '@skein/spec';
import type { Transactions } from './driver/transactions.js';
import type { Outcome } from './group-commit.js';
import type { Statements } from './statements.js';
import { writeCheckpoint } from './write-checkpoint.js';

/**
 * A call the store hands to its group commit, written in call order with the others of its turn.
 * `kind` is the call's name, so an error says which call it refused.
 */
export type GroupWrite =
  | { readonly kind: 'save'; readonly checkpoint: EncodedCheckpoint }
  | { readonly kind: 'acquireLease'; readonly threadId: string; readonly lease: LeaseRequest }
  | { readonly kind: 'releaseLease'; readonly threadId: string; readonly owner: string };

/** What writing one returned: whether `acquireLease` got the lease; nothing for the others. */
export type WriteResult = boolean | undefined;

/** What writing a group needs of the store. */
export interface GroupWriter {
  readonly sql: Statements;
  readonly tx: Transactions;
  readonly store: StoreIdentity;
  /** The store's error for `error` met by the call named `operation`. */
  translate(error: unknown, operation: string): unknown;
}

/** A call of the group failed after it had written: the group goes again with savepoints. */
class WrittenHalfway extends Error {
  constructor(override readonly cause: unknown) {
    super('a call of the group failed after it had written', { cause });
  }
}

/**
 * The group's calls in one transaction, in call order, each checked against what the earlier
 * ones wrote: the same outcome as calling them one after another. IMMEDIATE takes the write lock
 * before the checks, so a second process writing the same thread waits and then sees the new
 * counts instead of both passing the check.
 *
 * A refused call writes nothing (its checks come before its writes), so it fails alone with no
 * savepoint to undo it: the common group pays for no savepoint at all. Should a call fail after
 * it wrote (a broken constraint, I/O), that transaction is rolled back and the group written
 * again with a savepoint per call, so that only that call fails. When the transaction as a whole
 * fails (a busy database, disk full, I/O: SQLite may end it itself), nothing of the group is
 * written and every call fails, each with the error named for it.
 */
export function writeGroup(
  writer: GroupWriter,
  group: readonly GroupWrite[],
): readonly Outcome<WriteResult>[] {
  try {
    return writer.tx.immediate(() => group.map((write) => tryApply(writer, write)));
  } catch (error) {
    if (!(error instanceof WrittenHalfway)) return refuseAll(writer, group, error);
    // One call alone has no others to keep: its failure is the group's.
    if (group.length === 1) return refuseAll(writer, group, error.cause);
  }
  try {
    return writer.tx.immediate(() => group.map((write) => attempt(writer, write)));
  } catch (error) {
    return refuseAll(writer, group, error);
  }
}

function refuseAll(
  writer: GroupWriter,
  group: readonly GroupWrite[],
  error: unknown,
): Outcome<WriteResult>[] {
  return group.map((write) => ({ refusal: writer.translate(error, write.kind) }));
}

/** One call with no savepoint: refused alone (having written nothing), or written. */
function tryApply(writer: GroupWriter, write: GroupWrite): Outcome<WriteResult> {
  try {
    return { value: apply(writer, write) };
  } catch (error) {
    // The checks' refusals are Skein errors, thrown before any write; SQLite's own are not, and
    // may come after one.
    if (SkeinError.isInstance(error)) return { refusal: error };
    throw new WrittenHalfway(error);
  }
}

/** One call under its savepoint: refused alone (its writes undone), or written. */
function attempt(writer: GroupWriter, write: GroupWrite): Outcome<WriteResult> {
  let value: WriteResult;
  const refusal = writer.tx.attempt(() => {
    value = apply(writer, write);
  });
  return refusal === undefined ? { value } : { refusal: writer.translate(refusal, write.kind) };
}

function apply({ sql, store }: GroupWriter, write: GroupWrite): WriteResult {
  switch (write.kind) {
    case 'save':
      writeCheckpoint(sql, write.checkpoint, store);
      return undefined;
    case 'acquireLease': {
      const { owner, expiresAt, now } = write.lease;
      // One statement under the transaction's write lock: of several connections or processes
      // asking at once, exactly one gets a free lease.
      return sql.acquireLease.run(write.threadId, owner, expiresAt, now).changes === 1;
    }
    case 'releaseLease':
      sql.releaseLease.run(write.threadId, write.owner);
      return undefined;
  }
}
