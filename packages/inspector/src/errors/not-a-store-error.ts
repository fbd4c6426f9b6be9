import { SkeinError } from '@skein/spec';

/**
 * `--db` names a file that exists but is not a Skein store (an empty file included). Opening it
 * as a store would turn it into one, so the inspector leaves it as it is.
 */
export class NotAStoreError extends SkeinError<'NOT_A_STORE'> {
  static override readonly errorName = 'NotAStoreError';
  readonly location: string;
  /** What the file is instead. */
  readonly reason: string;

  constructor(location: string, reason: string) {
    super(
      'NOT_A_STORE',
      `${location} is not a Skein store (${reason}); the inspector opens only stores written by @skein/store-sqlite and never changes another file`,
      { details: { location, reason } },
    );
    this.location = location;
    this.reason = reason;
  }
}
