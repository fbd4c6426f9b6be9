import { SkeinError } from '@skein/spec';

/** The model call failed after every retry. */
export class LLMCallError extends SkeinError<'LLM_CALL_FAILED'> {
  static override readonly errorName = 'LLMCallError';
  readonly nodeId: string;
  readonly attempts: number;

  constructor(nodeId: string, attempts: number, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const code = SkeinError.isInstance(cause) ? ` (${cause.code})` : '';
    super(
      'LLM_CALL_FAILED',
      `Model call of node "${nodeId}" failed after ${attempts} attempt${attempts === 1 ? '' : 's'}${code}: ${message}`,
      // Whether the same call could succeed later is the cause's to say.
      { cause, details: { nodeId, attempts }, retryable: SkeinError.isRetryable(cause) },
    );
    this.nodeId = nodeId;
    this.attempts = attempts;
  }
}
