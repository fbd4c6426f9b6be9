import { SkeinError } from '@skein/conversation';

/** A checkpoint whose conversation delta does not continue what the store holds for its thread. */
export class CheckpointConflictError extends SkeinError {
  constructor(
    threadId: string,
    expected: { messages: number; log: number },
    got: { messages: number; log: number },
  ) {
    super(
      'CHECKPOINT_CONFLICT',
      `Checkpoint for thread ${threadId} starts at ${got.messages} messages / ${got.log} log entries but the store holds ${expected.messages} / ${expected.log}; rebuild from the latest checkpoint, or fork the thread under a new id`,
      { details: { threadId, expected, got } },
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
