import { SkeinError } from '@skein/conversation';

/**
 * The response stream broke before it was complete (connection dropped, or ended without
 * `[DONE]` and without a finish reason). Nothing of the partial response is returned.
 * Retryable: a new request can complete; the deltas of the broken one were already streamed.
 */
export class StreamInterruptedError extends SkeinError {
  constructor(reason: string, details: { chunks: number; model?: string }, cause?: unknown) {
    super(
      'STREAM_INTERRUPTED',
      `The response stream of ${details.model ?? 'the model'} broke after ${details.chunks} chunk(s): ${reason}`,
      { cause, details: { reason, ...details }, retryable: true },
    );
  }
}
