import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Checkpoint } from '@skein/core/store-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { openRaw, openStore, withRaw } from './test-support/driver.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';

const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-leases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => join(dir, `leases-${++counter}.db`);

function owned(checkpoint: Checkpoint, owner: unknown): Checkpoint {
  return { ...checkpoint, owner: owner as string };
}

/** Row counts of the tables a save writes, read through a connection of its own. */
function rows(filename: string): Record<string, number> {
  return withRaw(
    filename,
    (db) => {
      const count = (table: string) =>
        db.column<[], number>(`SELECT count(*) FROM ${table}`).get()!;
      return {
        threads: count('threads'),
        checkpoints: count('checkpoints'),
        messages: count('messages'),
      };
    },
    { readonly: true },
  );
}

const hello = [{ role: 'user', content: 'hello' }];

describe('SqliteCheckpointStore leases', () => {
  it('fence a later checkpoint of a stored thread once another owner took the lease, writing nothing', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    expect(await store.acquireLease('t', { owner: 'a', expiresAt: 100, now: 0 })).toBe(true);
    await store.save(owned(makeCheckpoint('t', 1, { messages: 0, log: 0 }, hello), 'a'));
    // Its own lease, expired but not taken by anyone: a's saves still go through.
    await store.save(owned(makeCheckpoint('t', 2, { messages: 1, log: 0 }), 'a'));
    expect(await store.acquireLease('t', { owner: 'b', expiresAt: 300, now: 200 })).toBe(true);
    const before = rows(filename);
    await expect(
      store.save(owned(makeCheckpoint('t', 3, { messages: 1, log: 0 }, hello), 'a')),
    ).rejects.toMatchObject({
      name: 'ThreadConflictError',
      code: 'THREAD_LEASED',
      threadId: 't',
      retryable: false,
      details: { owner: 'a', holder: 'b' },
    });
    expect(rows(filename)).toEqual(before);
    // The new owner continues from the same head.
    await store.save(owned(makeCheckpoint('t', 3, { messages: 1, log: 0 }, hello), 'b'));
    expect((await store.list('t')).map((c) => c.id)).toEqual(['t:1', 't:2', 't:3']);
    store.close();
  });

  it('do not fence a checkpoint that names no owner', async () => {
    const store = openStore({ filename: ':memory:' });
    await store.acquireLease('t', { owner: 'a', expiresAt: 100, now: 0 });
    await store.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }));
    expect((await store.load('t'))!.checkpoint.id).toBe('t:1');
    // Nor does the save touch the lease.
    expect(await store.acquireLease('t', { owner: 'b', expiresAt: 100, now: 50 })).toBe(false);
    store.close();
  });

  it('go with the thread when it is deleted, even a thread that was never saved', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    await store.acquireLease('saved', { owner: 'a', expiresAt: 100, now: 0 });
    await store.save(owned(makeCheckpoint('saved', 1, { messages: 0, log: 0 }), 'a'));
    await store.acquireLease('never', { owner: 'a', expiresAt: 100, now: 0 });
    expect(await store.delete('saved')).toBe(true);
    expect(await store.delete('never')).toBe(false);
    expect(await store.acquireLease('saved', { owner: 'b', expiresAt: 100, now: 0 })).toBe(true);
    expect(await store.acquireLease('never', { owner: 'b', expiresAt: 100, now: 0 })).toBe(true);
    store.close();
  });

  it('keep any finite time exactly, fractions and large values included', async () => {
    const store = openStore({ filename: ':memory:' });
    await store.acquireLease('t', { owner: 'a', expiresAt: 1.5, now: 0 });
    expect(await store.acquireLease('t', { owner: 'b', expiresAt: 9, now: 1.4999 })).toBe(false);
    expect(await store.acquireLease('t', { owner: 'b', expiresAt: 2 ** 60, now: 1.5 })).toBe(true);
    expect(await store.acquireLease('t', { owner: 'a', expiresAt: 9, now: 2 ** 60 - 2 ** 9 })).toBe(
      false,
    );
    expect(await store.acquireLease('t', { owner: 'a', expiresAt: 9, now: 2 ** 60 })).toBe(true);
    expect(await store.acquireLease('u', { owner: 'a', expiresAt: -5, now: -10 })).toBe(true);
    expect(await store.acquireLease('u', { owner: 'b', expiresAt: 0, now: -5 })).toBe(true);
    store.close();
  });

  it('read back a lease beyond 2^53 to fence with it (node:sqlite reads such an integer only as a bigint)', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    expect(await store.acquireLease('t', { owner: 'b', expiresAt: 2 ** 60, now: 0 })).toBe(true);
    // The fence reads the row inside the save's transaction.
    await expect(
      store.save(owned(makeCheckpoint('t', 1, { messages: 0, log: 0 }), 'a')),
    ).rejects.toMatchObject({ code: 'THREAD_LEASED', details: { owner: 'a', holder: 'b' } });
    await store.save(owned(makeCheckpoint('t', 1, { messages: 0, log: 0 }), 'b'));
    store.close();
    expect(
      withRaw(filename, (db) =>
        db.prepare('SELECT owner, expires_at, typeof(expires_at) AS type FROM leases').all(),
      ),
    ).toEqual([{ owner: 'b', expires_at: 2 ** 60, type: 'integer' }]);
  });

  it('refuse bad arguments with INVALID_ARGUMENT naming them, writing nothing', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    const lease = { owner: 'a', expiresAt: 1, now: 0 };
    for (const threadId of [42, '', undefined])
      await expect(store.acquireLease(threadId as string, lease)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        argument: 'threadId',
      });
    await expect(
      store.acquireLease('t', { owner: 'a', expiresAt: 1, now: Number.POSITIVE_INFINITY }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'lease.now' });
    await expect(store.releaseLease(7 as unknown as string, 'a')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'threadId',
    });
    await expect(store.releaseLease('t', null as unknown as string)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'owner',
    });
    for (const owner of ['', 7])
      await expect(
        store.save(owned(makeCheckpoint('t', 1, { messages: 0, log: 0 }), owner)),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'checkpoint.owner' });
    expect(rows(filename)).toEqual({ threads: 0, checkpoints: 0, messages: 0 });
    expect(await store.acquireLease('t', lease)).toBe(true);
    store.close();
  });

  it('wait for another connection holding the write lock, then give STORE_BUSY', async () => {
    const filename = freshFile();
    const store = openStore({ filename, busyTimeoutMs: 0 });
    const other = openRaw(filename);
    other.exec('BEGIN IMMEDIATE');
    try {
      await expect(
        store.acquireLease('t', { owner: 'a', expiresAt: 1, now: 0 }),
      ).rejects.toMatchObject({
        name: 'StoreError',
        code: 'STORE_BUSY',
        retryable: true,
        details: { operation: 'acquireLease' },
      });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(await store.acquireLease('t', { owner: 'a', expiresAt: 1, now: 0 })).toBe(true);
    store.close();
  });

  it('refuse calls after close() with STORE_CLOSED', async () => {
    const store = openStore({ filename: ':memory:' });
    store.close();
    await expect(
      store.acquireLease('t', { owner: 'a', expiresAt: 1, now: 0 }),
    ).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    await expect(store.releaseLease('t', 'a')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});
