import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerClient, WorkerDatabaseError } from './index.js';
import { type RestartablePostgres, startOwnPostgres } from './test-support/start-postgres.js';

let pg: RestartablePostgres;

beforeAll(async () => {
  pg = await startOwnPostgres();
}, 60_000);

afterAll(async () => {
  await pg?.stop();
});

describe('a client while the database is down', () => {
  it('rejects with a typed, retryable error carrying the driver error, and works once it is back', async () => {
    const client = createWorkerClient({ connectionString: pg.connectionString, log: () => {} });
    try {
      await client.migrate();
      await pg.halt();
      const calls: (() => Promise<unknown>)[] = [
        () => client.enqueueThread('chain', 'during', { threadId: 'during' }),
        () => client.resumeThread('before', 'yes'),
        () => client.cancelThread('before'),
        () => client.subscribe('before', () => {}),
      ];
      for (const call of calls) {
        const error: unknown = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(WorkerDatabaseError.isInstance(error), String(error)).toBe(true);
        expect(error).toMatchObject({ code: 'WORKER_DATABASE_UNAVAILABLE', retryable: true });
        expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
      }
      await pg.restart();
      await expect(client.subscribe('before', () => {})).resolves.toBeTypeOf('function');
      await expect(client.cancelThread('before')).rejects.toMatchObject({
        code: 'WORKER_UNKNOWN_THREAD',
      });
    } finally {
      await client.close();
    }
  });
});
