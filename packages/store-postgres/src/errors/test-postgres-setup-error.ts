import { SkeinError } from '@skein/spec';

/**
 * `@skein/store-postgres/testing` cannot start its embedded PostgreSQL server here, for a reason
 * no retry can fix: as root the server runs as the `postgres` user, and that user cannot reach a
 * folder it needs. The message names the folder and what to do.
 */
export class TestPostgresSetupError extends SkeinError<'TEST_POSTGRES_SETUP'> {
  static override readonly errorName = 'TestPostgresSetupError';
  /** The folder at fault. */
  readonly path: string;
  /** What to do about it, e.g. `chmod o+x /root`. */
  readonly fix: string;

  constructor(path: string, problem: string, fix: string) {
    super('TEST_POSTGRES_SETUP', `Cannot start the embedded PostgreSQL: ${problem}. ${fix}`, {
      details: { path, fix },
    });
    this.path = path;
    this.fix = fix;
  }
}
