import { SkeinError } from '@skein/spec';

/** The step budget ran out; the thread keeps its state and can be executed again. */
export class MaxStepsExceededError extends SkeinError<'MAX_STEPS_EXCEEDED'> {
  static override readonly errorName = 'MaxStepsExceededError';
  readonly threadId: string;
  readonly maxSteps: number;
  /** The node that would have run next. */
  readonly nodeId?: string;

  constructor(threadId: string, maxSteps: number, nodeId: string | undefined) {
    super(
      'MAX_STEPS_EXCEEDED',
      `Thread ${threadId} stopped after ${maxSteps} steps (next node: ${nodeId ?? 'none'})`,
      { details: { threadId, maxSteps, nodeId } },
    );
    this.threadId = threadId;
    this.maxSteps = maxSteps;
    if (nodeId !== undefined) this.nodeId = nodeId;
  }
}
