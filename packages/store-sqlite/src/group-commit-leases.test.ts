import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRaw, openStore, withRaw } from './test-support/driver.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { walCommits } from './test-support/wal-commits.js';

// Lease calls join the group commit (decision 0030): asked for in the same turn as saves, they
// are written with them, in call order, in one transaction. The model-based check that any mix
// settles as calling one by one would is in the conformance suite (calls-at-once-model.ts).

const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-group-leases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => join(dir, `group-${++counter}.db`);

const hello = [{ role: 'user', content: 'hello' }];
const lease = (owner: string, now: number) => ({ owner, expiresAt: now + 100, now });

/** How each call settled: its value ('done' for none), or the code of the error it failed with. */
function outcomes(calls: readonly Promise<unknown>[]): Promise<unknown[]> {
  return Promise.all(
    calls.map((call) =>
      call.then(
        (value) => value ?? 'done',
        (error: { code?: string }) => error.code ?? String(error),
      ),
    ),
  );
}

/** Each call's error (undefined when it succeeded). */
function errors(calls: readonly Promise<unknown>[]) {
  return Promise.all(
    calls.map((call) =>
      call.then(
        () => undefined,
        (error: { code: string; details: { operation: string } }) => error,
      ),
    ),
  );
}

/** Threads t0…t(n-1), each with its first checkpoint, stored before the turn under test. */
async function threads(store: ReturnType<typeof openStore>, n: number): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      store.save(makeCheckpoint(`t${i}`, 1, { messages: 0, log: 0 }, hello)),
    ),
  );
}

describe('SqliteCheckpointStore group commit with lease calls', () => {
  it('writes the leases taken and given up in a turn with its saves, in one commit', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    await threads(store, 10);
    const before = walCommits(filename);
    const calls = Array.from({ length: 10 }, (_, i) => [
      store.acquireLease(`t${i}`, lease('a', 0)),
      store.save({ ...makeCheckpoint(`t${i}`, 2, { messages: 1, log: 0 }), owner: 'a' }),
      store.releaseLease(`t${i}`, 'a'),
    ]).flat();
    expect(await outcomes(calls)).toEqual(Array(10).fill([true, 'done', 'done']).flat());
    expect(walCommits(filename).commits - before.commits).toBe(1);
    // Given up in that commit: another owner takes every lease at once.
    for (let i = 0; i < 10; i++)
      expect(await store.acquireLease(`t${i}`, lease('b', 1))).toBe(true);
    store.close();
  });

  it('refuses a lease or a save of a turn alone; the others are written', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    await threads(store, 3);
    expect(await store.acquireLease('t0', lease('a', 0))).toBe(true);
    const before = walCommits(filename);
    const calls = [
      store.acquireLease('t0', lease('b', 10)), // a holds it
      store.save(makeCheckpoint('t1', 1, { messages: 0, log: 0 }, hello)), // stale
      store.save(makeCheckpoint('t2', 2, { messages: 1, log: 0 })),
      store.acquireLease('t2', lease('b', 10)),
    ];
    expect(await outcomes(calls)).toEqual([false, 'CHECKPOINT_CONFLICT', 'done', true]);
    expect(walCommits(filename).commits - before.commits).toBe(1);
    expect((await store.list('t2')).map((c) => c.id)).toEqual(['t2:1', 't2:2']);
    expect(await store.acquireLease('t0', lease('b', 20))).toBe(false);
    store.close();
  });

  it('undoes only the call SQLite refused after it had written, the others are kept', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    await threads(store, 3);
    // A message insert SQLite refuses, after the save has moved its thread's head.
    withRaw(filename, (db) =>
      db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON messages WHEN NEW.body LIKE '%refuse me%'
               BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END`),
    );
    const calls = [
      store.save(makeCheckpoint('t0', 2, { messages: 1, log: 0 }, hello)),
      store.save(
        makeCheckpoint('t1', 2, { messages: 1, log: 0 }, [{ role: 'user', content: 'refuse me' }]),
      ),
      store.acquireLease('t1', lease('a', 0)),
      store.save(makeCheckpoint('t2', 2, { messages: 1, log: 0 }, hello)),
    ];
    const settled = await outcomes(calls);
    expect(settled[0]).toBe('done');
    expect(settled[1]).toMatch(/^STORE_/);
    expect(settled.slice(2)).toEqual([true, 'done']);
    expect((await store.list('t1')).map((c) => c.id)).toEqual(['t1:1']);
    expect((await store.load('t1'))!.conversation.messages).toHaveLength(1);
    expect((await store.list('t2')).map((c) => c.id)).toEqual(['t2:1', 't2:2']);
    store.close();
  });

  it('fails every call of the group, each named, when the transaction as a whole fails', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    await threads(store, 2);
    // RAISE(ROLLBACK) ends the whole transaction, as a full disk or an I/O error can.
    withRaw(filename, (db) =>
      db.exec(`CREATE TRIGGER roll_back BEFORE INSERT ON messages WHEN NEW.body LIKE '%roll back%'
               BEGIN SELECT RAISE(ROLLBACK, 'the transaction ends'); END`),
    );
    const calls = [
      store.acquireLease('t0', lease('a', 0)),
      store.save(makeCheckpoint('t0', 2, { messages: 1, log: 0 }, hello)),
      store.save(
        makeCheckpoint('t1', 2, { messages: 1, log: 0 }, [{ role: 'user', content: 'roll back' }]),
      ),
      store.releaseLease('t0', 'a'),
    ];
    const failed = await errors(calls);
    const code = failed[0]?.code;
    expect(code).toMatch(/^STORE_/);
    expect(failed.map((e) => e?.code)).toEqual(Array(4).fill(code));
    expect(failed.map((e) => e?.details.operation)).toEqual([
      'acquireLease',
      'save',
      'save',
      'releaseLease',
    ]);
    // Nothing of the group was written.
    expect((await store.list('t0')).map((c) => c.id)).toEqual(['t0:1']);
    expect(await store.acquireLease('t0', lease('b', 10))).toBe(true);
    store.close();
  });

  it('fails every call of the group with STORE_BUSY when another connection holds the lock', async () => {
    const filename = freshFile();
    const store = openStore({ filename, busyTimeoutMs: 0 });
    await threads(store, 1);
    const other = openRaw(filename);
    other.exec('BEGIN IMMEDIATE');
    try {
      const calls = [
        store.save(makeCheckpoint('t0', 2, { messages: 1, log: 0 }, hello)),
        store.acquireLease('t0', lease('a', 0)),
      ];
      const failed = await errors(calls);
      expect(failed.map((e) => [e?.code, e?.details.operation])).toEqual([
        ['STORE_BUSY', 'save'],
        ['STORE_BUSY', 'acquireLease'],
      ]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // The store goes on once the lock is free.
    expect(await store.acquireLease('t0', lease('a', 0))).toBe(true);
    store.close();
  });
});
