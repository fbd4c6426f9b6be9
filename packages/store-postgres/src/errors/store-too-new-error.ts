import { SkeinError } from '@skein/spec';

/** The schema was migrated by a newer @skein/store-postgres; using it would need a downgrade. */
export class StoreTooNewError extends SkeinError<'STORE_TOO_NEW'> {
  static override readonly errorName = 'StoreTooNewError';
  readonly schema: string;
  readonly found: number;
  readonly supported: number;

  constructor(schema: string, found: number, supported: number) {
    super(
      'STORE_TOO_NEW',
      `Postgres checkpoint schema "${schema}" is at version ${found} but this @skein/store-postgres supports up to ${supported}; upgrade the package (nothing was changed)`,
      { details: { schema, found, supported } },
    );
    this.schema = schema;
    this.found = found;
    this.supported = supported;
  }
}
