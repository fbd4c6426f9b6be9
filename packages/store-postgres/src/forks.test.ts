import type { Checkpoint } from '@skein/core/store-kit';
import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { makeFork } from './test-support/make-fork.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

// A fork shares the conversation it continues with the thread it came from: forking a long
// thread writes the fork's own rows only, and deleting the thread it came from hands the fork
// just the rows it reads.

const db = useTestPostgres();

let schemas = 0;
function newStore(): { store: PostgresCheckpointStore; schema: string } {
  const schema = `forks_${++schemas}`;
  return { store: new PostgresCheckpointStore({ pool: db.pool, schema }), schema };
}

const message = (tag: string, i: number) => ({ role: 'user', content: `${tag} ${i}` });
const entry = (tag: string, i: number) => ({ kind: 'note', tag, i });

/** `count` messages and `logCount` log entries, tagged so each thread's are told apart. */
function added(tag: string, count: number, logCount = 0) {
  return {
    messages: Array.from({ length: count }, (_, i) => message(tag, i)),
    log: Array.from({ length: logCount }, (_, i) => entry(tag, i)),
  };
}

/** Checkpoint `sequence` of `threadId`, continuing `from` with what `adds` holds. */
function next(
  threadId: string,
  sequence: number,
  from: { messages: number; log: number },
  adds: ReturnType<typeof added>,
): Checkpoint {
  const checkpoint = makeCheckpoint(threadId, sequence, from, adds.messages);
  return { ...checkpoint, conversation: { ...checkpoint.conversation, log: adds.log as never } };
}

/** Rows of the schema's messages and log_entries tables that are thread `threadId`'s own. */
async function ownRows(schema: string, threadId: string) {
  const { rows } = await db.pool.query<{ messages: number; log: number }>(
    `SELECT (SELECT count(*) FROM "${schema}".messages m WHERE m.thread = t.id)::int AS messages,
       (SELECT count(*) FROM "${schema}".log_entries l WHERE l.thread = t.id)::int AS log
     FROM "${schema}".threads t WHERE t.thread_id = $1`,
    [threadId],
  );
  return rows[0];
}

async function conversation(store: PostgresCheckpointStore, threadId: string, at?: string) {
  return (await store.load(threadId, at))?.conversation;
}

describe('a fork', () => {
  it('of a long thread writes only its own rows, loads the whole conversation, and keeps it when the origin is deleted', async () => {
    const { store, schema } = newStore();
    const first = added('origin a', 1000, 10);
    const second = added('origin b', 1000, 10);
    await store.save(next('origin', 1, { messages: 0, log: 0 }, first));
    await store.save(next('origin', 2, { messages: 1000, log: 10 }, second));

    const own = added('fork', 2, 1);
    await store.save(
      makeFork(
        'fork',
        { threadId: 'origin', checkpointId: 'origin:2' },
        { messages: 2000, log: 20 },
        own.messages,
        own.log,
      ),
    );
    await store.save(
      makeFork(
        'early',
        { threadId: 'origin', checkpointId: 'origin:1' },
        { messages: 1000, log: 10 },
        [message('early', 0)],
      ),
    );
    // None of the 2,000 messages it shares is written again.
    expect(await ownRows(schema, 'fork')).toEqual({ messages: 2, log: 1 });
    expect(await ownRows(schema, 'early')).toEqual({ messages: 1, log: 0 });

    const expected = {
      version: 1,
      messages: [...first.messages, ...second.messages, ...own.messages],
      log: [...first.log, ...second.log, ...own.log],
    };
    const expectedEarly = {
      version: 1,
      messages: [...first.messages, message('early', 0)],
      log: first.log,
    };
    expect(await conversation(store, 'fork')).toEqual(expected);
    expect(await conversation(store, 'fork', 'fork:1')).toEqual(expected);
    expect(await conversation(store, 'early')).toEqual(expectedEarly);
    expect((await store.list('fork'))[0]).toMatchObject({ sequence: 1, messageCount: 2002 });

    // The origin runs on; what it adds is not the forks'.
    const later = added('origin c', 5, 1);
    await store.save(next('origin', 3, { messages: 2000, log: 20 }, later));
    expect(await conversation(store, 'fork')).toEqual(expected);

    expect(await store.delete('origin')).toBe(true);
    // Each fork was handed the rows it read, and no more: not what the origin added after it.
    expect(await ownRows(schema, 'fork')).toEqual({ messages: 2002, log: 21 });
    expect(await ownRows(schema, 'early')).toEqual({ messages: 1001, log: 10 });
    expect(await ownRows(schema, 'origin')).toBeUndefined();
    expect(await store.load('origin')).toBeUndefined();
    expect(await conversation(store, 'fork')).toEqual(expected);
    expect(await conversation(store, 'early')).toEqual(expectedEarly);
    const { rows } = await db.pool.query(
      `SELECT base, base_messages, base_log FROM "${schema}".threads ORDER BY thread_id`,
    );
    expect(rows).toEqual([
      { base: null, base_messages: '0', base_log: '0' },
      { base: null, base_messages: '0', base_log: '0' },
    ]);

    // And the fork runs on from what it holds now.
    await store.save(next('fork', 2, { messages: 2002, log: 21 }, added('fork more', 1)));
    expect((await conversation(store, 'fork'))!.messages).toEqual([
      ...expected.messages,
      message('fork more', 0),
    ]);
  });

  it('of a fork loses nothing when the middle thread is deleted, then the root', async () => {
    const { store, schema } = newStore();
    const root1 = added('root a', 50, 4);
    const root2 = added('root b', 50, 4);
    await store.save(next('root', 1, { messages: 0, log: 0 }, root1));
    await store.save(next('root', 2, { messages: 50, log: 4 }, root2));
    // The middle forks the root early and adds rows of its own; the leaf forks the middle.
    const middle1 = added('middle a', 30, 3);
    const middle2 = added('middle b', 20, 2);
    await store.save(
      makeFork(
        'middle',
        { threadId: 'root', checkpointId: 'root:1' },
        { messages: 50, log: 4 },
        middle1.messages,
        middle1.log,
      ),
    );
    await store.save(next('middle', 2, { messages: 80, log: 7 }, middle2));
    const leaf1 = added('leaf', 5, 1);
    await store.save(
      makeFork(
        'leaf',
        { threadId: 'middle', checkpointId: 'middle:1' },
        { messages: 80, log: 7 },
        leaf1.messages,
        leaf1.log,
      ),
    );
    const expected = {
      version: 1,
      messages: [...root1.messages, ...middle1.messages, ...leaf1.messages],
      log: [...root1.log, ...middle1.log, ...leaf1.log],
    };
    expect(await conversation(store, 'leaf')).toEqual(expected);
    expect(await ownRows(schema, 'leaf')).toEqual({ messages: 5, log: 1 });
    expect(await ownRows(schema, 'middle')).toEqual({ messages: 50, log: 5 });

    // Pruning only drops checkpoint rows: the middle's messages stay for the leaf.
    expect(await store.prune('middle', { keepLast: 1 })).toBe(1);
    expect(await conversation(store, 'leaf')).toEqual(expected);

    expect(await store.delete('middle')).toBe(true);
    // The leaf holds what it read of the middle (positions 50–79), and reads the rest from the root.
    expect(await ownRows(schema, 'leaf')).toEqual({ messages: 35, log: 4 });
    expect(await conversation(store, 'leaf')).toEqual(expected);
    expect(await conversation(store, 'leaf', 'leaf:1')).toEqual(expected);
    expect(await conversation(store, 'root')).toEqual({
      version: 1,
      messages: [...root1.messages, ...root2.messages],
      log: [...root1.log, ...root2.log],
    });

    expect(await store.delete('root')).toBe(true);
    // The root's first 50 only, not the 50 it added after the middle forked it.
    expect(await ownRows(schema, 'leaf')).toEqual({ messages: 85, log: 8 });
    expect(await conversation(store, 'leaf')).toEqual(expected);
    expect(await store.listThreads()).toMatchObject([{ threadId: 'leaf' }]);
  });

  it('of a thread deleted meanwhile is refused, and the tables refuse a delete that would orphan one', async () => {
    const { store, schema } = newStore();
    await store.save(next('origin', 1, { messages: 0, log: 0 }, added('origin', 3)));
    await store.save(
      makeFork('fork', { threadId: 'origin', checkpointId: 'origin:1' }, { messages: 3, log: 0 }),
    );
    // A delete behind the store's back that would leave the fork reading rows no longer there.
    await expect(
      db.pool.query(`DELETE FROM "${schema}".threads WHERE thread_id = 'origin'`),
    ).rejects.toMatchObject({ code: '23503' });

    expect(await store.delete('origin')).toBe(true);
    await expect(
      store.save(
        makeFork('late', { threadId: 'origin', checkpointId: 'origin:1' }, { messages: 3, log: 0 }),
      ),
    ).rejects.toMatchObject({ name: 'CheckpointNotFoundError', code: 'CHECKPOINT_NOT_FOUND' });
    expect(await store.load('late')).toBeUndefined();
    expect((await conversation(store, 'fork'))!.messages).toEqual(added('origin', 3).messages);
  });
});
