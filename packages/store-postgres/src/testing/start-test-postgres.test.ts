import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from './index.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server?.stop());

async function databases(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname LIKE 'skein\\_test\\_%' ORDER BY 1",
  );
  await client.end();
  return rows.map((r) => r.datname);
}

describe('startTestPostgres', () => {
  it('gives a database of its own on 127.0.0.1, empty, that takes connections', async () => {
    const url = new URL(server.connectionString);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toMatch(/^\/skein_test_[0-9a-f]{12}$/);
    const client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(rows).toEqual([{ n: 0 }]);
    await client.end();
  });

  it('on a given server (as with SKEIN_TEST_PG_URL) makes fresh databases and drops them on stop', async () => {
    const other = await startTestPostgres({ url: server.connectionString });
    const extra = await other.createDatabase();
    expect(other.connectionString).not.toBe(server.connectionString);
    expect(extra).not.toBe(other.connectionString);
    const names = [other.connectionString, extra].map((u) => new URL(u).pathname.slice(1));
    expect(await databases(server.connectionString)).toEqual(expect.arrayContaining(names));
    // A connection left open does not stop the drop.
    const left = new pg.Client({ connectionString: extra });
    left.on('error', () => {});
    await left.connect();
    await other.stop();
    const remaining = await databases(server.connectionString);
    for (const name of names) expect(remaining).not.toContain(name);
    await left.end().catch(() => {});
  });
});
