import { SkeinError } from '@skein/spec';

/**
 * The store did not take a checkpoint. The thread went back to its last stored checkpoint (or to
 * how it was built, when it has none): `execute` or `resume` continues from there.
 */
export class CheckpointSaveError extends SkeinError<'CHECKPOINT_SAVE_FAILED'> {
  static override readonly errorName = 'CheckpointSaveError';
  readonly threadId: string;
  /** The last checkpoint the store holds for the thread; undefined when it holds none. */
  readonly lastCheckpointId?: string;

  constructor(threadId: string, lastCheckpointId: string | undefined, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      'CHECKPOINT_SAVE_FAILED',
      `Checkpoint of thread ${threadId} could not be saved (${reason}); the thread went back to ${lastCheckpointId ? `checkpoint ${lastCheckpointId}` : 'how it was built'}`,
      { cause, details: { threadId, lastCheckpointId }, retryable: SkeinError.isRetryable(cause) },
    );
    this.threadId = threadId;
    if (lastCheckpointId !== undefined) this.lastCheckpointId = lastCheckpointId;
  }
}
