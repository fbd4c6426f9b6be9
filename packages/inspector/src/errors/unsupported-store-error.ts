import { SkeinError } from '@skein/spec';

/** `--db` named something no store opener recognises. */
export class UnsupportedStoreError extends SkeinError<'UNSUPPORTED_STORE'> {
  static override readonly errorName = 'UnsupportedStoreError';
  readonly location: string;
  /** What the inspector can open. */
  readonly supported: readonly string[];

  constructor(location: string, supported: readonly string[]) {
    super(
      'UNSUPPORTED_STORE',
      `Cannot open a store at ${location}: supported are ${supported.join(', ')}`,
      { details: { location, supported } },
    );
    this.location = location;
    this.supported = supported;
  }
}
