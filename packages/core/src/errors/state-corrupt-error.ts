import { SkeinError } from '@skein/conversation';

/** A stored thread state that is not what the engine wrote (a damaged or tampered store row). */
export class StateCorruptError extends SkeinError {
  readonly threadId: string;
  /** The field that is wrong, e.g. `state.dynamicTools`. */
  readonly field: string;

  constructor(threadId: string, checkpointId: string | undefined, field: string, problem: string) {
    super(
      'STATE_CORRUPT',
      `Stored state of thread ${threadId}${checkpointId ? ` (checkpoint ${checkpointId})` : ''} is corrupt: ${field} ${problem}`,
      { details: { threadId, checkpointId, field, problem } },
    );
    this.threadId = threadId;
    this.field = field;
  }
}
