import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { makeFork } from './test-support/make-fork.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

// A fork and a delete of the thread it comes from, at once: whichever commits first, the other
// sees it, and nothing of the fork is lost. A transaction of the test's own holds a lock one of
// them needs, so that the two meet in a known order.

const db = useTestPostgres();

let schemas = 0;

const messages = [1, 2, 3].map((i) => ({ role: 'user', content: `m${i}` }));
const mine = { role: 'user', content: 'mine' };

/** A store whose thread `origin` has one checkpoint of three messages. */
async function withOrigin(): Promise<{ store: PostgresCheckpointStore; schema: string }> {
  const schema = `fork_races_${++schemas}`;
  const store = new PostgresCheckpointStore({ pool: db.pool, schema });
  await store.save(makeCheckpoint('origin', 1, { messages: 0, log: 0 }, messages));
  return { store, schema };
}

const atOrigin = { threadId: 'origin', checkpointId: 'origin:1' };

/** Resolves once `n` statements of this database wait for a row lock. */
async function waiting(n: number): Promise<void> {
  for (;;) {
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function begin(): Promise<pg.PoolClient> {
  const client = await db.pool.connect();
  await client.query('BEGIN');
  return client;
}

describe('a fork and a delete of its origin at once', () => {
  it('fork first: the delete, which looked before the fork committed, hands it its rows', async () => {
    const { store, schema } = await withOrigin();
    // A row of the fork's thread id not committed yet: the fork's save, holding its lock on the
    // origin, waits for it to go.
    const blocker = await begin();
    await blocker.query(
      `INSERT INTO "${schema}".threads (thread_id, workflow_id, workflow_version, status, step,
         updated_at, last_checkpoint_id, checkpoint_count, message_count, log_count)
       VALUES ('fork', 'w', '1', 'RUNNING', 0, 'now', 'none', 0, 0, 0)`,
    );
    const saving = store.save(makeFork('fork', atOrigin, { messages: 3, log: 0 }, [mine]));
    await waiting(1);
    // Finds no fork, then waits for the origin's row, which the fork's save holds.
    const deleting = store.delete('origin');
    await waiting(2);
    await blocker.query('ROLLBACK');
    blocker.release();

    await saving;
    expect(await deleting).toBe(true);
    expect(await store.load('origin')).toBeUndefined();
    expect((await store.load('fork'))!.conversation.messages).toEqual([...messages, mine]);
    const { rows } = await db.pool.query(
      `SELECT count(*)::int AS n FROM "${schema}".messages m
       JOIN "${schema}".threads t ON t.id = m.thread WHERE t.thread_id = 'fork'`,
    );
    expect(rows[0].n).toBe(4);
  });

  it('delete first: the fork, which waited for it, is refused as one of a checkpoint not stored', async () => {
    const { store } = await withOrigin();
    await store.save(makeFork('first', atOrigin, { messages: 3, log: 0 }));
    // The delete locks the origin, then waits for its fork's row, which the test holds.
    const blocker = await begin();
    await blocker.query(
      `SELECT 1 FROM "${store.schema}".threads WHERE thread_id = 'first' FOR UPDATE`,
    );
    const deleting = store.delete('origin');
    await waiting(1);
    const saving = store.save(makeFork('second', atOrigin, { messages: 3, log: 0 }, [mine]));
    // Its refusal is awaited from now on: it may come before the delete's answer.
    const refused = expect(saving).rejects.toMatchObject({
      name: 'CheckpointNotFoundError',
      code: 'CHECKPOINT_NOT_FOUND',
    });
    await waiting(2);
    await blocker.query('COMMIT');
    blocker.release();

    expect(await deleting).toBe(true);
    await refused;
    expect(await store.load('second')).toBeUndefined();
    expect((await store.load('first'))!.conversation.messages).toEqual(messages);
  });
});
