import { SkeinError } from '@skein/conversation';

/**
 * A checkpoint that does not continue what the store holds for its thread: its conversation delta
 * starts elsewhere, or its parent is not the thread's latest checkpoint (a stale writer).
 */
export class CheckpointConflictError extends SkeinError {
  constructor(
    threadId: string,
    expected: { messages: number; log: number },
    got: { messages: number; log: number },
    parent?: { expected: string | undefined; got: string | undefined },
  ) {
    const what = parent
      ? `names parent ${parent.got ?? '(none)'} but the thread's latest checkpoint is ${parent.expected ?? '(none)'}`
      : `starts at ${got.messages} messages / ${got.log} log entries but the store holds ${expected.messages} / ${expected.log}`;
    super(
      'CHECKPOINT_CONFLICT',
      `Checkpoint for thread ${threadId} ${what}; rebuild from the latest checkpoint, or fork the thread under a new id`,
      { details: { threadId, expected, got, ...(parent ? { parent } : {}) } },
    );
  }
}

export class CheckpointNotFoundError extends SkeinError {
  constructor(threadId: string, checkpointId?: string) {
    super(
      'CHECKPOINT_NOT_FOUND',
      checkpointId
        ? `Checkpoint ${checkpointId} of thread ${threadId} does not exist`
        : `Thread ${threadId} has no checkpoint`,
      { details: { threadId, checkpointId } },
    );
  }
}
