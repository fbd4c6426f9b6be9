import { SkeinError } from '@skein/spec';

/** `--db` names a file that does not exist: the inspector reads stores, it never creates one. */
export class StoreMissingError extends SkeinError<'STORE_MISSING'> {
  static override readonly errorName = 'StoreMissingError';
  readonly location: string;

  constructor(location: string) {
    super('STORE_MISSING', `No store at ${location}: the file does not exist`, {
      details: { location },
    });
    this.location = location;
  }
}
