import { SkeinError } from '@skein/spec';

/** A node failed. Carries where to pick the thread up again. */
export class NodeExecutionError extends SkeinError<'NODE_FAILED'> {
  static override readonly errorName = 'NodeExecutionError';
  readonly threadId: string;
  readonly nodeId: string;
  readonly lastCheckpointId?: string;

  constructor(threadId: string, nodeId: string, cause: unknown, lastCheckpointId?: string) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super('NODE_FAILED', `Node "${nodeId}" of thread ${threadId} failed: ${message}`, {
      cause,
      details: { threadId, nodeId, lastCheckpointId },
      // Running the thread again from its last checkpoint can succeed when the cause was transient.
      retryable: SkeinError.isRetryable(cause),
    });
    this.threadId = threadId;
    this.nodeId = nodeId;
    if (lastCheckpointId !== undefined) this.lastCheckpointId = lastCheckpointId;
  }
}
