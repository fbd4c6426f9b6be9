import { SkeinError } from '@skein/spec';

/** A request body over the inspector's `maxBodyBytes`; it was not read further. Answered 413. */
export class BodyTooLargeError extends SkeinError<'BODY_TOO_LARGE'> {
  static override readonly errorName = 'BodyTooLargeError';
  readonly limit: number;

  constructor(limit: number) {
    super('BODY_TOO_LARGE', `The request body is over the limit of ${limit} bytes`, {
      details: { limit },
    });
    this.limit = limit;
  }
}
