import { SkeinError } from '@skein/spec';

/** The database was written by a newer @skein/store-sqlite; opening it would need a downgrade. */
export class StoreTooNewError extends SkeinError<'STORE_TOO_NEW'> {
  static override readonly errorName = 'StoreTooNewError';
  readonly filename: string;
  readonly found: number;
  readonly supported: number;

  constructor(filename: string, found: number, supported: number) {
    super(
      'STORE_TOO_NEW',
      `Checkpoint database ${filename} has schema version ${found} but this @skein/store-sqlite supports up to ${supported}; upgrade the package (the file was not changed)`,
      { details: { filename, found, supported } },
    );
    this.filename = filename;
    this.found = found;
    this.supported = supported;
  }
}
