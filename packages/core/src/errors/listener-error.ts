import { SkeinError } from '@skein/spec';

/** An event listener threw. The engine carried on; this reports it through the `error` event. */
export class ListenerError extends SkeinError<'LISTENER_FAILED'> {
  static override readonly errorName = 'ListenerError';
  /** The event whose listener threw. */
  readonly event: string;

  constructor(event: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('LISTENER_FAILED', `A listener of "${event}" threw: ${reason}`, {
      cause,
      details: { event },
    });
    this.event = event;
  }
}
