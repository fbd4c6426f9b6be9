import { SkeinError } from '@skein/spec';

/**
 * A trigger's condition or action failed after node `nodeId` completed (an INSERT at a position
 * that is not visible, an expression that cannot be evaluated, a variable JSON cannot carry). The
 * node counts as not completed: the thread fails at it, and running the thread again runs the node
 * and its triggers again.
 */
export class TriggerFailedError extends SkeinError<'TRIGGER_FAILED'> {
  static override readonly errorName = 'TriggerFailedError';
  readonly threadId: string;
  readonly triggerId: string;
  readonly nodeId: string;
  /** Whether the trigger's condition or its action failed. */
  readonly stage: 'condition' | 'action';

  constructor(
    threadId: string,
    triggerId: string,
    nodeId: string,
    stage: 'condition' | 'action',
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      'TRIGGER_FAILED',
      `Trigger "${triggerId}" failed in its ${stage} after node "${nodeId}" of thread ${threadId}: ${reason}`,
      { cause, details: { threadId, triggerId, nodeId, stage } },
    );
    this.threadId = threadId;
    this.triggerId = triggerId;
    this.nodeId = nodeId;
    this.stage = stage;
  }
}
