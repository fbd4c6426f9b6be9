import type { Checkpoint } from '@skein/core/store-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { statements } from './statements.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

const db = useTestPostgres();

let counter = 0;
async function freshStore(): Promise<PostgresCheckpointStore> {
  const store = new PostgresCheckpointStore({ pool: db.pool, schema: `group_${++counter}` });
  await store.migrate();
  return store;
}

const hello = [{ role: 'user', content: 'hello' }];
const owned = (checkpoint: Checkpoint, owner: string): Checkpoint => ({ ...checkpoint, owner });

function outcomes(saves: readonly Promise<void>[]): Promise<string[]> {
  return Promise.all(
    saves.map((save) =>
      save.then(
        () => 'saved',
        (error: { code?: string }) => error.code ?? String(error),
      ),
    ),
  );
}

/** The transactions that wrote these checkpoint rows: each row keeps its writer's id (xmin). */
async function writers(schema: string, ids: readonly string[]): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    `SELECT count(DISTINCT xmin::text)::int AS n FROM "${schema}".checkpoints
     WHERE checkpoint_id = ANY($1::text[])`,
    [ids],
  );
  return rows[0]!.n;
}

/** Created one by one first, so that the saves measured next are later checkpoints. */
async function threads(store: PostgresCheckpointStore, count: number): Promise<void> {
  for (let i = 0; i < count; i++)
    await store.save(makeCheckpoint(`t${i}`, 1, { messages: 0, log: 0 }, hello));
}

describe('PostgresCheckpointStore group commit', () => {
  it('writes the saves of many threads asked for together in one transaction', async () => {
    const store = await freshStore();
    await threads(store, 30);
    const group = Array.from({ length: 30 }, (_, i) =>
      makeCheckpoint(`t${i}`, 2, { messages: 1, log: 0 }, hello),
    );
    expect(await outcomes(group.map((c) => store.save(c)))).toEqual(Array(30).fill('saved'));
    expect(
      await writers(
        store.schema,
        group.map((c) => c.id),
      ),
    ).toBe(1);
    // Saves awaited one by one are one transaction each.
    await store.save(makeCheckpoint('t0', 3, { messages: 2, log: 0 }));
    await store.save(makeCheckpoint('t1', 3, { messages: 2, log: 0 }));
    expect(await writers(store.schema, ['t0:3', 't1:3'])).toBe(2);
  });

  it('refuses a stale or fenced save of a group alone, writing nothing of it', async () => {
    const store = await freshStore();
    await threads(store, 3);
    expect(await store.acquireLease('t2', { owner: 'other', expiresAt: 100, now: 0 })).toBe(true);
    const saves = [
      store.save(makeCheckpoint('t0', 2, { messages: 1, log: 0 }, hello)),
      store.save(makeCheckpoint('t1', 1, { messages: 0, log: 0 }, hello)),
      store.save(owned(makeCheckpoint('t2', 2, { messages: 1, log: 0 }, hello), 'me')),
      store.save(makeCheckpoint('new', 1, { messages: 0, log: 0 }, hello)),
    ];
    expect(await outcomes(saves)).toEqual([
      'saved',
      'CHECKPOINT_CONFLICT',
      'THREAD_LEASED',
      'saved',
    ]);
    expect((await store.list('t0')).map((c) => c.id)).toEqual(['t0:1', 't0:2']);
    expect((await store.list('t1')).map((c) => c.id)).toEqual(['t1:1']);
    expect((await store.list('t2')).map((c) => c.id)).toEqual(['t2:1']);
    expect((await store.load('t2'))!.conversation.messages).toHaveLength(1);
    expect((await store.list('new')).map((c) => c.id)).toEqual(['new:1']);
  });

  it('tries each save alone when one breaks a constraint, so only that one fails', async () => {
    const store = await freshStore();
    await threads(store, 3);
    // A stray row where t1's next message goes: its save breaks the primary key.
    await db.pool.query(
      `INSERT INTO "${store.schema}".messages (thread, position, body)
       SELECT id, 1, '{}' FROM "${store.schema}".threads WHERE thread_id = 't1'`,
    );
    const saves = [0, 1, 2].map((i) =>
      store.save(makeCheckpoint(`t${i}`, 2, { messages: 1, log: 0 }, hello)),
    );
    expect(await outcomes(saves)).toEqual(['saved', 'STORE_CORRUPT', 'saved']);
    expect((await store.list('t1')).map((c) => c.id)).toEqual(['t1:1']);
  });

  it('refuses a fenced save of a group whose lease is taken over while it waits, alone', async () => {
    const store = await freshStore();
    await threads(store, 2);
    await store.acquireLease('t0', { owner: 'a', expiresAt: 100, now: 0 });
    await store.acquireLease('t1', { owner: 'a', expiresAt: 100, now: 0 });
    // Another process in the middle of taking t0's lease over.
    const client = await db.pool.connect();
    await client.query('BEGIN');
    const { rows } = await client.query<{ taken: boolean }>({
      ...statements(store.schema).acquireLeases,
      values: [['t0'], ['b'], [300], [200]],
    });
    expect(rows).toEqual([{ taken: true }]);
    const settled = outcomes([
      store.save(owned(makeCheckpoint('t0', 2, { messages: 1, log: 0 }, hello), 'a')),
      store.save(owned(makeCheckpoint('t1', 2, { messages: 1, log: 0 }, hello), 'a')),
    ]);
    // The group waits for the lease row; once the takeover commits, it reads b's lease.
    for (;;) {
      const { rows } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0]!.n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await client.query('COMMIT');
    client.release();
    expect(await settled).toEqual(['THREAD_LEASED', 'saved']);
    expect((await store.list('t0')).map((c) => c.id)).toEqual(['t0:1']);
    expect((await store.list('t1')).map((c) => c.id)).toEqual(['t1:1', 't1:2']);
  });

  it('settles every save of a group as saving them one by one in that order would', async () => {
    const store = await freshStore();
    let run = 0;
    const save = fc.record({
      thread: fc.constantFrom('x', 'y', 'z'),
      stale: fc.boolean(),
      messages: fc.nat({ max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(save, { minLength: 1, maxLength: 10 }), async (plan) => {
        run++;
        const heads = new Map<string, { sequence: number; messages: number }>();
        const expected: string[] = [];
        const checkpoints = plan.map(({ thread, stale, messages }) => {
          const threadId = `${thread}${run}`;
          const head = heads.get(threadId) ?? { sequence: 0, messages: 0 };
          const isStale = stale && head.sequence > 0;
          const base = isStale ? { sequence: head.sequence - 1, messages: 0 } : head;
          expected.push(isStale ? 'CHECKPOINT_CONFLICT' : 'saved');
          if (!isStale)
            heads.set(threadId, {
              sequence: base.sequence + 1,
              messages: base.messages + messages,
            });
          return makeCheckpoint(
            threadId,
            base.sequence + 1,
            { messages: base.messages, log: 0 },
            Array.from({ length: messages }, (_, i) => ({ role: 'user', content: `m${i}` })),
          );
        });
        expect(await outcomes(checkpoints.map((c) => store.save(c)))).toEqual(expected);
        for (const [threadId, head] of heads) {
          const stored = (await store.load(threadId))!;
          expect(stored.checkpoint.id).toBe(`${threadId}:${head.sequence}`);
          expect(stored.conversation.messages).toHaveLength(head.messages);
          expect(await store.list(threadId)).toHaveLength(head.sequence);
        }
      }),
      { numRuns: 25 },
    );
  });
});
