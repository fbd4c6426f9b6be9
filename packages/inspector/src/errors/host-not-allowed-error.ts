import { SkeinError } from '@skein/spec';

/**
 * A request named a host the inspector is not bound to: a page on another site reaching the
 * inspector through a DNS name rebound to 127.0.0.1. Answered 421 (Misdirected Request).
 */
export class HostNotAllowedError extends SkeinError<'HOST_NOT_ALLOWED'> {
  static override readonly errorName = 'HostNotAllowedError';
  /** The `Host` header as sent (empty when there was none). */
  readonly host: string;

  constructor(host: string) {
    super(
      'HOST_NOT_ALLOWED',
      `This inspector does not answer for host "${host}": open it through 127.0.0.1, localhost or [::1] with its port`,
      { details: { host } },
    );
    this.host = host;
  }
}
