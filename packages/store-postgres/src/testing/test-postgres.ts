/** A PostgreSQL database for one test file, and how to get rid of it. */
export interface TestPostgres {
  /** `postgres://…@127.0.0.1:<port>/<database>`: a database of its own, empty at start. */
  readonly connectionString: string;
  /**
   * Creates another empty database on the same server and returns its connection string (for a
   * test that needs a clean slate of its own); `stop()` drops it too.
   */
  createDatabase(): Promise<string>;
  /** Drops the databases and, for a server this helper started, stops it and deletes its files. */
  stop(): Promise<void>;
}

export interface StartTestPostgresOptions {
  /**
   * A server to use instead of starting one (default: the `SKEIN_TEST_PG_URL` environment
   * variable); its user must be allowed to create databases.
   */
  readonly url?: string;
}
