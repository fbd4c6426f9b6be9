import { SkeinError } from '@skein/spec';

/**
 * No response headers within `timeoutMs` (per attempt), or no stream bytes for `timeoutMs`.
 * Retryable: the next attempt may be answered in time.
 */
export class RequestTimeoutError extends SkeinError<'REQUEST_TIMEOUT'> {
  static override readonly errorName = 'RequestTimeoutError';
  readonly model: string;
  /** Whether the request got no response, or the stream went quiet. */
  readonly phase: 'request' | 'stream';
  readonly timeoutMs: number | undefined;

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
    this.model = model;
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }
}
