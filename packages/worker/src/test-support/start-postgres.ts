import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEmbeddedPostgres } from '@skein/store-postgres/testing';

export interface TestPostgres {
  readonly connectionString: string;
  stop(): Promise<void>;
}

/** A server of this process's own, which a test can take down and bring back. */
export interface RestartablePostgres extends TestPostgres {
  /** Shuts the server down (fast shutdown: every connection is cut), keeping data and port. */
  halt(): Promise<void>;
  /** Starts it again on the same data folder and port. */
  restart(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

function log(message: unknown): void {
  const file = process.env.SKEIN_TEST_PG_LOG;
  if (file) appendFileSync(file, `${String(message)}\n`);
}

/** A real PostgreSQL server on 127.0.0.1 in a fresh folder; `SKEIN_TEST_PG_URL` replaces it. */
export async function startPostgres(): Promise<TestPostgres> {
  const given = process.env.SKEIN_TEST_PG_URL;
  if (given) return { connectionString: given, stop: async () => {} };
  return startOwnPostgres();
}

/** Always an embedded server (never `SKEIN_TEST_PG_URL`): one a test may halt and restart. */
export async function startOwnPostgres(): Promise<RestartablePostgres> {
  const databaseDir = await mkdtemp(join(tmpdir(), 'skein-worker-pg-'));
  const port = await freePort();
  // As root, from binaries the server's `postgres` user can reach (a clone inside /root cannot).
  const EmbeddedPostgres = await loadEmbeddedPostgres(import.meta.url);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    // Kept on halt, for the restart; removed by stop().
    persistent: true,
    createPostgresUser: true,
    // SKEIN_TEST_PG_LOG=<file> keeps the server's log, for a failure that needs it.
    onLog: (message) => log(message),
    onError: (message) => log(message),
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off'],
  });
  await server.initialise();
  await server.start();
  await server.createDatabase('skein');
  return {
    connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/skein`,
    stop: async () => {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
    halt: () => server.stop(),
    restart: () => server.start(),
  };
}
