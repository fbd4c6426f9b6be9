import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import type { PostgresCheckpointStoreOptions } from './store-options.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

const db = useTestPostgres();

function refusal(options: unknown): unknown {
  try {
    new PostgresCheckpointStore(options as PostgresCheckpointStoreOptions);
  } catch (error) {
    return error;
  }
  throw new Error(`${String(options)} was accepted`);
}

async function schemas(): Promise<string[]> {
  const { rows } = await db.pool.query<{ nspname: string }>(
    "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' ORDER BY 1",
  );
  return rows.map((r) => r.nspname);
}

describe('PostgresCheckpointStore options', () => {
  it.each([
    '',
    'Skein',
    '1abc',
    'a-b',
    'a b',
    'a"b',
    'x'.repeat(64),
    'pg_catalog',
    'pg_skein',
    'skein; DROP TABLE x',
    42,
    null,
  ])('refuses schema %j as INVALID_ARGUMENT, creating nothing', async (schema) => {
    const before = await schemas();
    const error = refusal({ pool: db.pool, schema });
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'schema' });
    expect((error as Error).message).toMatch(/schema must be a lower-case SQL identifier/);
    expect(await schemas()).toEqual(before);
  });

  it('accepts plain identifiers up to 63 characters', async () => {
    for (const schema of ['_', 'a', 'skein_2', 'x'.repeat(63)]) {
      const store = new PostgresCheckpointStore({ pool: db.pool, schema });
      expect(store.schema).toBe(schema);
      expect(await store.listThreads()).toEqual([]);
    }
    expect(new PostgresCheckpointStore({ pool: db.pool }).schema).toBe('skein');
  });

  it.each([
    [undefined, 'options'],
    ['postgres://x', 'options'],
    [{}, 'connectionString'],
    [{ connectionString: '' }, 'connectionString'],
    [{ connectionString: 42 }, 'connectionString'],
    [{ pool: {} }, 'pool'],
    [{ pool: 'postgres://x' }, 'pool'],
    [{ connectionString: 'postgres://x', maxConnections: 0 }, 'maxConnections'],
    [{ connectionString: 'postgres://x', maxConnections: 1.5 }, 'maxConnections'],
    [{ connectionString: 'postgres://x', maxConnections: '4' }, 'maxConnections'],
  ])('refuses %j as INVALID_ARGUMENT naming %s', (options, argument) => {
    expect(refusal(options)).toMatchObject({ code: 'INVALID_ARGUMENT', argument });
  });

  it('refuses a pool and a connection string together, and maxConnections with a pool', () => {
    expect(refusal({ pool: db.pool, connectionString: db.server.connectionString })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'options',
    });
    expect(refusal({ pool: db.pool, maxConnections: 2 })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'maxConnections',
    });
  });

  it('refuses bad arguments to its methods before touching the database', async () => {
    const store = new PostgresCheckpointStore({ pool: db.pool, schema: 'methods' });
    await expect(store.load(42 as never)).rejects.toMatchObject({ argument: 'threadId' });
    await expect(store.load('t', 7 as never)).rejects.toMatchObject({ argument: 'checkpointId' });
    await expect(store.list(null as never)).rejects.toMatchObject({ argument: 'threadId' });
    await expect(store.delete({} as never)).rejects.toMatchObject({ argument: 'threadId' });
    for (const keepLast of [0, -1, 1.5, Number.NaN, '2'])
      await expect(store.prune('t', { keepLast: keepLast as number })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        argument: 'keepLast',
      });
    expect(await schemas()).not.toContain('methods');
  });
});
