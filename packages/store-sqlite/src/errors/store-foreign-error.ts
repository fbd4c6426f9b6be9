import { SkeinError } from '@skein/spec';

/**
 * A valid SQLite database that is not a Skein checkpoint store (another application's file), or one
 * whose tables do not have the shape its schema version promises. It is never written to.
 */
export class StoreForeignError extends SkeinError<'STORE_FOREIGN'> {
  static override readonly errorName = 'StoreForeignError';
  readonly filename: string;
  /** What did not match, one line each. */
  readonly problems: readonly string[];

  constructor(filename: string, problems: readonly string[]) {
    super(
      'STORE_FOREIGN',
      `${filename} is not a Skein checkpoint database: ${problems.join('; ')}`,
      { details: { filename, problems } },
    );
    this.filename = filename;
    this.problems = problems;
  }
}
