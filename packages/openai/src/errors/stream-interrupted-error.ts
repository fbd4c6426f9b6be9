import { SkeinError } from '@skein/spec';

/**
 * The response stream broke before it was complete (connection dropped, or ended without
 * `[DONE]` and without a finish reason). Nothing of the partial response is returned.
 * Retryable: a new request can complete; the deltas of the broken one were already streamed.
 */
export class StreamInterruptedError extends SkeinError<'STREAM_INTERRUPTED'> {
  static override readonly errorName = 'StreamInterruptedError';
  readonly reason: string;
  /** Chunks received before the stream broke. */
  readonly chunks: number;
  readonly model?: string;

  constructor(reason: string, details: { chunks: number; model?: string }, cause?: unknown) {
    super(
      'STREAM_INTERRUPTED',
      `The response stream of ${details.model ?? 'the model'} broke after ${details.chunks} chunk(s): ${reason}`,
      { cause, details: { reason, ...details }, retryable: true },
    );
    this.reason = reason;
    this.chunks = details.chunks;
    if (details.model !== undefined) this.model = details.model;
  }
}
