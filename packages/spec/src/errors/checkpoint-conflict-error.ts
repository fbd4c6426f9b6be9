import { ConflictError } from './kind-errors.js';

/** How far a conversation reaches: stored messages and log entries. */
export interface ConversationExtent {
  readonly messages: number;
  readonly log: number;
}

/** The parent a checkpoint named, and the thread's latest checkpoint the store holds. */
export interface ParentMismatch {
  readonly expected: string | undefined;
  readonly got: string | undefined;
}

/**
 * A checkpoint that does not continue what the store holds for its thread: its conversation delta
 * starts elsewhere, or its parent is not the thread's latest checkpoint (a stale writer).
 */
export class CheckpointConflictError extends ConflictError<'CHECKPOINT_CONFLICT'> {
  static override readonly errorName = 'CheckpointConflictError';
  readonly threadId: string;
  readonly expected: ConversationExtent;
  readonly got: ConversationExtent;
  /** Set when the conflict is a stale parent rather than a delta starting elsewhere. */
  readonly parent?: ParentMismatch;

  constructor(
    threadId: string,
    expected: ConversationExtent,
    got: ConversationExtent,
    parent?: ParentMismatch,
  ) {
    const what = parent
      ? `names parent ${parent.got ?? '(none)'} but the thread's latest checkpoint is ${parent.expected ?? '(none)'}`
      : `starts at ${got.messages} messages / ${got.log} log entries but the store holds ${expected.messages} / ${expected.log}`;
    super(
      'CHECKPOINT_CONFLICT',
      `Checkpoint for thread ${threadId} ${what}; rebuild from the latest checkpoint, or fork the thread under a new id`,
      { details: { threadId, expected, got, ...(parent ? { parent } : {}) } },
    );
    this.threadId = threadId;
    this.expected = expected;
    this.got = got;
    if (parent) this.parent = parent;
  }
}
