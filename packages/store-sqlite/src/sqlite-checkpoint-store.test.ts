import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import type { Checkpoint } from '@skein/core/store-kit';
import { afterAll, describe, expect, it } from 'vitest';
import type { SqlValue } from './driver/connection.js';
import { openRaw, openStore, withRaw } from './test-support/driver.js';
import { loopEngine, loopSteps } from './test-support/loop-workflow.js';
import { makeCheckpoint as checkpoint } from './test-support/make-checkpoint.js';

const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => join(dir, `store-${++counter}.db`);

function open(filename: string) {
  return openStore({ filename, synchronous: 'normal' });
}

/** Reads the file through its own connection, as another program would. */
function query<T>(filename: string, sql: string, ...params: SqlValue[]): T[] {
  return withRaw(filename, (db) => db.prepare<SqlValue[], T>(sql).all(...params), {
    readonly: true,
  });
}

const count = (filename: string, table: string) =>
  query<{ n: number }>(filename, `SELECT count(*) AS n FROM ${table}`)[0]!.n;

describe('SqliteCheckpointStore', () => {
  it('stores each message and log entry once, however many checkpoints cover it', async () => {
    const filename = freshFile();
    const store = open(filename);
    const rounds = 300;
    const { thread, result } = await loopEngine(store, { iterations: rounds }).run('loop', {
      threadId: 'long',
      maxSteps: loopSteps(rounds),
    });
    expect(result.status).toBe('COMPLETED');
    const loaded = (await store.load('long'))!;
    const total = thread.conversation.getTotalMessageCount();
    expect(loaded.conversation.messages).toHaveLength(total);
    expect(count(filename, 'messages')).toBe(total);
    expect(count(filename, 'log_entries')).toBe(loaded.conversation.log.length);
    expect(count(filename, 'checkpoints')).toBe(loopSteps(rounds));
    // A checkpoint row holds the state, not the history: early and late rows are the same size.
    const sizes = query<{ n: number }>(
      filename,
      'SELECT length(state) AS n FROM checkpoints ORDER BY id',
    ).map((r) => r.n);
    expect(sizes.at(-2)! - sizes[40]!).toBeLessThan(40);
    // An early checkpoint still loads exactly its prefix.
    const early = (await store.list('long'))[40]!;
    const atEarly = (await store.load('long', early.id))!;
    expect(atEarly.conversation.messages).toEqual(
      loaded.conversation.messages.slice(0, early.messageCount),
    );
    expect(atEarly.checkpoint).toEqual(early);
    store.close();
  });

  it('refuses a delta that does not continue the thread, changing nothing', async () => {
    const filename = freshFile();
    const store = open(filename);
    await store.save(checkpoint('t', 1, { messages: 0, log: 0 }, [{ role: 'user', content: 'a' }]));
    const before = await store.load('t');
    for (const from of [
      { messages: 0, log: 0 },
      { messages: 2, log: 0 },
      { messages: 1, log: 1 },
    ])
      await expect(
        store.save(checkpoint('t', 2, from, [{ role: 'user', content: 'b' }])),
      ).rejects.toMatchObject({
        code: 'CHECKPOINT_CONFLICT',
        details: { threadId: 't', expected: { messages: 1, log: 0 }, got: from },
      });
    await expect(store.save(checkpoint('new', 1, { messages: 3, log: 0 }))).rejects.toMatchObject({
      code: 'CHECKPOINT_CONFLICT',
    });
    expect(await store.load('t')).toEqual(before);
    expect(await store.load('new')).toBeUndefined();
    expect(count(filename, 'messages')).toBe(1);
    expect(count(filename, 'checkpoints')).toBe(1);
    expect(count(filename, 'threads')).toBe(1);
    store.close();
  });

  it('writes a checkpoint whole or not at all', async () => {
    const filename = freshFile();
    const store = open(filename);
    await store.save(checkpoint('t', 1, { messages: 0, log: 0 }, [{ role: 'user', content: 'a' }]));
    // A row the thread's counts do not know about: the next save's second insert collides.
    withRaw(filename, (db) =>
      db.prepare("INSERT INTO messages (thread, position, body) VALUES (1, 2, '{}')").run(),
    );
    const next = checkpoint('t', 2, { messages: 1, log: 0 }, [
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
    ]);
    await expect(store.save(next)).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      details: { filename },
    });
    expect(query(filename, 'SELECT position FROM messages ORDER BY position')).toEqual([
      { position: 0 },
      { position: 2 },
    ]);
    expect(await store.list('t')).toHaveLength(1);
    expect(query(filename, 'SELECT message_count, checkpoint_count FROM threads')).toEqual([
      { message_count: 1, checkpoint_count: 1 },
    ]);
    store.close();
  });

  it('refuses a malformed checkpoint before writing anything, naming the field', async () => {
    const filename = freshFile();
    const store = open(filename);
    await expect(
      store.save(
        checkpoint('t', 1, { messages: 0, log: 0 }, [
          { role: 'user', content: 'a' },
          { role: 'user', content: 1n },
        ]),
      ),
    ).rejects.toMatchObject({
      code: 'STORE_UNSERIALIZABLE',
      details: { path: 'checkpoint.conversation.messages[1].content' },
    });
    await expect(store.save(checkpoint('t', 0, { messages: 0, log: 0 }))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'checkpoint.sequence',
    });
    await expect(
      store.save({ ...checkpoint('t', 1, { messages: 0, log: 0 }), threadId: '' }),
    ).rejects.toMatchObject({ argument: 'checkpoint.threadId' });
    await expect(store.save(null as unknown as Checkpoint)).rejects.toMatchObject({
      argument: 'checkpoint',
    });
    expect(await store.listThreads()).toEqual([]);
    expect(count(filename, 'messages')).toBe(0);
    store.close();
  });

  it('reports a stored row that no longer parses as STORE_CORRUPT naming the file and the row', async () => {
    const filename = freshFile();
    const store = open(filename);
    await loopEngine(store, { iterations: 2 }).run('loop', { threadId: 'x' });
    withRaw(filename, (db) =>
      db.prepare('UPDATE messages SET body = \'{"role": "us\' WHERE position = 1').run(),
    );
    const error = await store.load('x').catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'StoreError',
      code: 'STORE_CORRUPT',
      details: { filename },
    });
    expect((error as Error).message).toMatch(/message 1 of thread x/);
    store.close();
  });

  it('lists, prunes and deletes with the bookkeeping kept in step', async () => {
    const filename = freshFile();
    const store = open(filename);
    const engine = loopEngine(store, { iterations: 3 });
    await engine.run('loop', { threadId: 'a' });
    await engine.run('loop', { threadId: 'b' });
    const all = await store.list('a');
    expect(all).toHaveLength(loopSteps(3));
    expect(await store.prune('a', { keepLast: 100 })).toBe(0);
    expect(await store.prune('nobody', { keepLast: 1 })).toBe(0);
    await expect(store.prune('a', { keepLast: 1.5 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await store.prune('a', { keepLast: 3 })).toBe(all.length - 3);
    expect((await store.list('a')).map((c) => c.id)).toEqual(all.slice(-3).map((c) => c.id));
    expect(await store.load('a', all[0]!.id)).toBeUndefined();
    const threads = await store.listThreads();
    expect(threads.map((t) => [t.threadId, t.checkpoints])).toEqual([
      ['a', 3],
      ['b', loopSteps(3)],
    ]);
    expect(threads[0]).toMatchObject({
      workflowId: 'loop',
      workflowVersion: '1',
      status: 'COMPLETED',
      step: loopSteps(3),
      lastCheckpointId: all.at(-1)!.id,
      updatedAt: all.at(-1)!.createdAt,
    });
    // Messages stay after a prune.
    const kept = (await store.load('a'))!;
    expect(kept.conversation.messages).toHaveLength(all.at(-1)!.messageCount);

    const bRows = count(filename, 'messages') - kept.conversation.messages.length;
    expect(await store.delete('a')).toBe(true);
    expect(count(filename, 'messages')).toBe(bRows);
    expect(query(filename, 'SELECT count(*) AS n FROM checkpoints WHERE thread = 1')).toEqual([
      { n: 0 },
    ]);
    expect(query(filename, 'SELECT count(*) AS n FROM log_entries WHERE thread = 1')).toEqual([
      { n: 0 },
    ]);
    // The id can be used again, from an empty conversation; it now lists after b.
    await engine.run('loop', { threadId: 'a' });
    expect((await store.listThreads()).map((t) => t.threadId)).toEqual(['b', 'a']);
    store.close();
  });

  it('shares one file between two stores (two processes) writing different threads', async () => {
    const filename = freshFile();
    const first = open(filename);
    const second = open(filename);
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        loopEngine(i % 2 ? first : second, { iterations: 20 }).run('loop', {
          threadId: `p${i}`,
          maxSteps: loopSteps(20),
        }),
      ),
    );
    for (const { thread } of runs) {
      const viaFirst = await first.load(thread.threadId);
      expect(viaFirst).toEqual(await second.load(thread.threadId));
      expect(viaFirst!.conversation.messages).toEqual(
        JSON.parse(JSON.stringify(thread.conversation.getAllMessages())),
      );
    }
    expect((await first.listThreads()).map((t) => t.threadId).sort()).toEqual([
      'p0',
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
    ]);
    // The same thread written through both: the stale one is refused.
    const a = loopEngine(first, { iterations: 2 });
    const b = loopEngine(second, { iterations: 2 });
    await a.run('loop', { threadId: 'same' });
    const stale = await b.loadThread('same', 'same:2');
    stale.dispatch({ type: 'finished', status: 'FAILED', error: undefined });
    await expect(b.run(stale)).rejects.toMatchObject({ code: 'CHECKPOINT_CONFLICT' });
    first.close();
    second.close();
  });

  it('waits for another writer up to the busy timeout, then fails with STORE_BUSY and writes nothing', async () => {
    const filename = freshFile();
    const store = openStore({ filename, busyTimeoutMs: 50 });
    const other = openRaw(filename);
    other.exec('BEGIN IMMEDIATE');
    try {
      await expect(store.save(checkpoint('t', 1, { messages: 0, log: 0 }))).rejects.toMatchObject({
        name: 'StoreError',
        code: 'STORE_BUSY',
        details: { filename },
        retryable: true,
      });
      // Readers are not blocked in WAL mode.
      expect(await store.listThreads()).toEqual([]);
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    await store.save(checkpoint('t', 1, { messages: 0, log: 0 }));
    expect(await store.list('t')).toHaveLength(1);
    store.close();
  });

  it('refuses every call after close with STORE_CLOSED, and closes twice quietly', async () => {
    const filename = freshFile();
    const store = open(filename);
    store.close();
    store.close();
    for (const call of [
      () => store.save(checkpoint('t', 1, { messages: 0, log: 0 })),
      () => store.load('t'),
      () => store.list('t'),
      () => store.listThreads(),
      () => store.delete('t'),
      () => store.prune('t', { keepLast: 1 }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'STORE_CLOSED', details: { filename } });
    const again = open(filename);
    expect(await again.listThreads()).toEqual([]);
    again.close();
  });

  it('gives back plain objects, whichever driver read the rows (node:sqlite rows have no prototype)', async () => {
    const store = open(freshFile());
    const engine = new SkeinEngine({ store, now: () => 1_000 });
    engine.registerWorkflow(
      new WorkflowBuilder('nap', '1')
        .start()
        .sleep('nap', { duration: 60_000 })
        .end('end')
        .chain('start', 'nap', 'end')
        .build(),
    );
    await engine.run('nap', { threadId: 'sleeper' });
    engine.close();
    const wakes = await store.listWakes();
    expect(wakes).toEqual([{ threadId: 'sleeper', at: 61_000 }]);
    const results = [
      ...wakes,
      ...(await store.list('sleeper')),
      ...(await store.listThreads()),
      (await store.load('sleeper'))!.checkpoint,
    ];
    for (const result of results) expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    store.close();
  });

  it('runs in WAL mode and folds the WAL back into the file on close', () => {
    const filename = freshFile();
    const store = open(filename);
    expect(query<{ journal_mode: string }>(filename, 'PRAGMA journal_mode')).toEqual([
      { journal_mode: 'wal' },
    ]);
    store.close();
    expect(existsSync(`${filename}-wal`)).toBe(false);
  });
});
