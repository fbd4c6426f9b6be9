import { SkeinError } from '@skein/conversation';

/**
 * No response headers within `timeoutMs` (per attempt), or no stream bytes for `timeoutMs`.
 * Retryable: the next attempt may be answered in time.
 */
export class RequestTimeoutError extends SkeinError {
  constructor(
    model: string,
    phase: 'request' | 'stream',
    timeoutMs: number | undefined,
    cause?: unknown,
  ) {
    const limit = timeoutMs === undefined ? 'the client timeout' : `${timeoutMs} ms`;
    super(
      'REQUEST_TIMEOUT',
      phase === 'request'
        ? `The request to ${model} got no response within ${limit}`
        : `The response stream of ${model} sent nothing for ${limit}`,
      { cause, details: { model, phase, timeoutMs }, retryable: true },
    );
  }
}
