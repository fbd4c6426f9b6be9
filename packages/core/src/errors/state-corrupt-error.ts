import { SkeinError } from '@skein/spec';

/** A stored thread state that is not what the engine wrote (a damaged or tampered store row). */
export class StateCorruptError extends SkeinError<'STATE_CORRUPT'> {
  static override readonly errorName = 'StateCorruptError';
  readonly threadId: string;
  /** The field that is wrong, e.g. `state.dynamicTools`. */
  readonly field: string;
  readonly checkpointId?: string;
  readonly problem: string;

  constructor(threadId: string, checkpointId: string | undefined, field: string, problem: string) {
    super(
      'STATE_CORRUPT',
      `Stored state of thread ${threadId}${checkpointId ? ` (checkpoint ${checkpointId})` : ''} is corrupt: ${field} ${problem}`,
      { details: { threadId, checkpointId, field, problem } },
    );
    this.threadId = threadId;
    this.field = field;
    if (checkpointId !== undefined) this.checkpointId = checkpointId;
    this.problem = problem;
  }
}
