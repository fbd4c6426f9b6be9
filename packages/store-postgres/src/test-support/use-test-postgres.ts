import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../testing/index.js';

/** A test file's server: an embedded PostgreSQL and a pool on it, from before its tests to after. */
export interface TestDatabase {
  readonly server: TestPostgres;
  readonly pool: pg.Pool;
}

/** Starts the file's server in `beforeAll` and stops it in `afterAll` (call at the top level). */
export function useTestPostgres(): TestDatabase {
  let started: TestDatabase | undefined;
  beforeAll(async () => {
    const server = await startTestPostgres();
    const pool = new pg.Pool({ connectionString: server.connectionString });
    // The server's shutdown ends connections the pool is still closing (FATAL 57P01); without a
    // listener the pool rethrows that as an unhandled error after the file's tests passed.
    pool.on('error', () => {});
    started = { server, pool };
  });
  afterAll(async () => {
    await started?.pool.end();
    await started?.server.stop();
  });
  const running = (): TestDatabase => {
    if (!started) throw new Error('the test server starts in beforeAll: use it inside a test');
    return started;
  };
  return {
    get server() {
      return running().server;
    },
    get pool() {
      return running().pool;
    },
  };
}
