import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

const db = useTestPostgres();

async function storeWithThread(schema: string): Promise<PostgresCheckpointStore> {
  const store = new PostgresCheckpointStore({ pool: db.pool, schema });
  await store.save(
    makeCheckpoint('t', 1, { messages: 0, log: 0 }, [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
    ]),
  );
  return store;
}

describe('rows changed by hand', () => {
  it('a missing message makes load fail with STORE_CORRUPT naming the checkpoint', async () => {
    const store = await storeWithThread('missing_row');
    await db.pool.query('DELETE FROM missing_row.messages WHERE position = 1');
    await expect(store.load('t')).rejects.toMatchObject({
      name: 'StoreError',
      code: 'STORE_CORRUPT',
      details: { schema: 'missing_row' },
      message: expect.stringMatching(/checkpoint t:1 of thread t covers 2 messages .* 1 and 0/),
    });
  });

  it('a body that no longer parses makes load fail with STORE_CORRUPT saying where', async () => {
    const store = await storeWithThread('bad_json');
    await db.pool.query("UPDATE bad_json.messages SET body = '{oops' WHERE position = 0");
    await expect(store.load('t')).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      details: { where: 'message 0 of thread t' },
    });
    await db.pool.query(
      `UPDATE bad_json.messages SET body = '{"role":"user","content":"a"}' WHERE position = 0`,
    );
    await db.pool.query("UPDATE bad_json.checkpoints SET state = 'nope'");
    await expect(store.load('t')).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      details: { where: 'state of checkpoint t:1' },
    });
  });

  it('a row the counts deny makes the next save fail with STORE_CORRUPT, writing nothing', async () => {
    const store = await storeWithThread('extra_row');
    await db.pool.query(
      "INSERT INTO extra_row.messages (thread, position, body) SELECT id, 2, '{}' FROM extra_row.threads",
    );
    await expect(
      store.save(makeCheckpoint('t', 2, { messages: 2, log: 0 }, [{ role: 'user', content: 'c' }])),
    ).rejects.toMatchObject({ code: 'STORE_CORRUPT', details: { schema: 'extra_row' } });
    expect((await store.list('t')).map((c) => c.id)).toEqual(['t:1']);
  });
});
