import { SkeinError } from '@skein/spec';

/** The caller's `AbortSignal` fired before or while the response arrived. Never retried. */
export class RequestAbortedError extends SkeinError<'REQUEST_ABORTED'> {
  static override readonly errorName = 'RequestAbortedError';
  readonly model: string;
  readonly phase: 'request' | 'stream';

  constructor(model: string, phase: 'request' | 'stream', reason: unknown) {
    super('REQUEST_ABORTED', `The request to ${model} was aborted during the ${phase}`, {
      cause: reason,
      details: { model, phase },
      retryable: false,
    });
    this.model = model;
    this.phase = phase;
  }
}
