import { NotFoundError } from './kind-errors.js';

/** A thread with no checkpoint, or a checkpoint id the thread does not have. */
export class CheckpointNotFoundError extends NotFoundError<'CHECKPOINT_NOT_FOUND'> {
  static override readonly errorName = 'CheckpointNotFoundError';
  readonly threadId: string;
  /** The checkpoint asked for; undefined when the thread's latest was asked for. */
  readonly checkpointId?: string;

  constructor(threadId: string, checkpointId?: string) {
    super(
      'CHECKPOINT_NOT_FOUND',
      checkpointId
        ? `Checkpoint ${checkpointId} of thread ${threadId} does not exist`
        : `Thread ${threadId} has no checkpoint`,
      { details: { threadId, checkpointId } },
    );
    this.threadId = threadId;
    if (checkpointId !== undefined) this.checkpointId = checkpointId;
  }
}
