import type { TokenUsage } from '@skein/spec';

// The conversation is an append-only message store plus a log of what changed the view. Message
// appends are implicit (storage order); every other change is one entry, stamped with `at`, the
// storage length when it happened. The current view is a fold of both, so a snapshot is the two
// arrays, an incremental checkpoint is their tails, and restore is replay.

interface EntryBase {
  /** Number of stored messages when the entry was made. */
  readonly at: number;
  /** Messages the operation itself stored at `[at, at + stored)` without appending them to the
   * view (a REPLACE or INSERT message, a rebuilt tool description). */
  readonly stored?: number;
}

/** The current batch shows `live` (storage positions) from now on. */
export interface ViewEntry extends EntryBase {
  readonly op: 'view';
  readonly live: readonly number[];
}

/** A new batch starts, showing `live`. */
export interface BatchEntry extends EntryBase {
  readonly op: 'batch';
  readonly live: readonly number[];
  readonly withInitialTools: boolean;
}

/** Batch `batch` becomes current again; later batches are discarded (their messages stay stored). */
export interface RollbackEntry extends EntryBase {
  readonly op: 'rollback';
  readonly batch: number;
}

export interface UsageEntry extends EntryBase {
  readonly op: 'usage';
  readonly usage: TokenUsage;
}

/** One batch of a `restore` entry. */
export interface RestoredBatch {
  readonly live: readonly number[];
  readonly withInitialTools: boolean;
  readonly startedAt: number;
  readonly usage: TokenUsage;
}

/**
 * The batch stack becomes exactly `batches` again (what it was at an earlier cursor). Messages
 * stored since stay stored; thread-level usage keeps counting them.
 */
export interface RestoreEntry extends EntryBase {
  readonly op: 'restore';
  readonly batches: readonly RestoredBatch[];
}

export type ConversationLogEntry =
  | ViewEntry
  | BatchEntry
  | RollbackEntry
  | UsageEntry
  | RestoreEntry;

/** How far a conversation has got: lengths of its message store and its log. */
export interface ConversationCursor {
  readonly messages: number;
  readonly log: number;
}
