import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListenConnection } from './listen-connection.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function notify(channel: string, payload: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.connectionString });
  await client.connect();
  try {
    await client.query('select pg_notify($1, $2)', [channel, payload]);
  } finally {
    await client.end();
  }
}

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
}

describe('ListenConnection', () => {
  it('listens again by itself after its connection is killed', async () => {
    const errors: Error[] = [];
    const listener = new ListenConnection({ connectionString: server.connectionString }, (e) =>
      errors.push(e),
    );
    const received: string[] = [];
    try {
      await listener.listen('skein_test_channel', (payload) => received.push(payload));
      await notify('skein_test_channel', 'one');
      await eventually(() => received.includes('one'));
      // Kill its backend, as a server restart or a network cut would.
      const admin = new pg.Client({ connectionString: server.connectionString });
      await admin.connect();
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where pid <> pg_backend_pid() and query ilike 'listen%'`,
      );
      await admin.end();
      await eventually(() => errors.length > 0);
      // Once reconnected, notifications arrive again.
      for (let i = 0; i < 50 && !received.includes('two'); i++) {
        await notify('skein_test_channel', 'two');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(received).toContain('two');
    } finally {
      await listener.close();
    }
  });
});
