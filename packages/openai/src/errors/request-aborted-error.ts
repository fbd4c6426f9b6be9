import { SkeinError } from '@skein/conversation';

/** The caller's `AbortSignal` fired before or while the response arrived. Never retried. */
export class RequestAbortedError extends SkeinError {
  constructor(model: string, phase: 'request' | 'stream', reason: unknown) {
    super('REQUEST_ABORTED', `The request to ${model} was aborted during the ${phase}`, {
      cause: reason,
      details: { model, phase },
      retryable: false,
    });
  }
}
