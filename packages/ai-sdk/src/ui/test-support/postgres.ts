import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEmbeddedPostgres } from '@skein/store-postgres/testing';

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

/** A real PostgreSQL server on 127.0.0.1 in a fresh folder (as `@skein/worker`'s tests start it). */
export async function startPostgres(): Promise<{
  connectionString: string;
  stop(): Promise<void>;
}> {
  const databaseDir = await mkdtemp(join(tmpdir(), 'skein-ai-sdk-pg-'));
  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres(import.meta.url);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
    postgresFlags: ['-c', 'fsync=off'],
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
