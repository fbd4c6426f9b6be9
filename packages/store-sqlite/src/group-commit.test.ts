import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryCheckpointStore } from '@skein/core';
import type { Checkpoint } from '@skein/core/store-kit';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './test-support/driver.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { walCommits } from './test-support/wal-commits.js';

const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => join(dir, `group-${++counter}.db`);

const hello = [{ role: 'user', content: 'hello' }];

/** How each save settled: 'saved', or the code of the error it was refused with. */
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

describe('SqliteCheckpointStore group commit', () => {
  it('writes the saves of many threads asked for in one turn with one commit', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    // Every thread exists first, so the counts below measure one round of later saves.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.save(makeCheckpoint(`t${i}`, 1, { messages: 0, log: 0 }, hello)),
      ),
    );
    const before = walCommits(filename);
    const saves = Array.from({ length: 20 }, (_, i) =>
      store.save(makeCheckpoint(`t${i}`, 2, { messages: 1, log: 0 }, hello)),
    );
    expect(await outcomes(saves)).toEqual(Array(20).fill('saved'));
    const after = walCommits(filename);
    expect(after.salts).toBe(before.salts);
    expect(after.commits - before.commits).toBe(1);
    // One save alone is one commit too, and saves awaited one by one are one each.
    await store.save(makeCheckpoint('t0', 3, { messages: 2, log: 0 }));
    await store.save(makeCheckpoint('t0', 4, { messages: 2, log: 0 }));
    expect(walCommits(filename).commits - after.commits).toBe(2);
    store.close();
  });

  it('refuses a stale or fenced save of a group alone, writing nothing of it', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    await store.save(makeCheckpoint('a', 1, { messages: 0, log: 0 }, hello));
    await store.save(makeCheckpoint('b', 1, { messages: 0, log: 0 }, hello));
    expect(await store.acquireLease('c', { owner: 'other', expiresAt: 100, now: 0 })).toBe(true);
    const before = walCommits(filename);
    const saves = [
      store.save(makeCheckpoint('a', 2, { messages: 1, log: 0 }, hello)),
      // Continues from where b was before its first checkpoint: a stale writer.
      store.save(makeCheckpoint('b', 1, { messages: 0, log: 0 }, hello)),
      // Names an owner whose lease someone else holds.
      store.save({ ...makeCheckpoint('c', 1, { messages: 0, log: 0 }, hello), owner: 'me' }),
      store.save(makeCheckpoint('d', 1, { messages: 0, log: 0 }, hello)),
    ];
    expect(await outcomes(saves)).toEqual([
      'saved',
      'CHECKPOINT_CONFLICT',
      'THREAD_LEASED',
      'saved',
    ]);
    expect(walCommits(filename).commits - before.commits).toBe(1);
    expect((await store.list('a')).map((c) => c.id)).toEqual(['a:1', 'a:2']);
    expect((await store.list('b')).map((c) => c.id)).toEqual(['b:1']);
    expect((await store.load('b'))!.conversation.messages).toHaveLength(1);
    expect(await store.list('c')).toEqual([]);
    expect((await store.list('d')).map((c) => c.id)).toEqual(['d:1']);
    store.close();
  });

  it('writes one thread’s saves of a group in the order they were asked for', async () => {
    const store = openStore({ filename: freshFile() });
    const saves = [
      store.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }, hello)),
      store.save(makeCheckpoint('t', 2, { messages: 1, log: 0 }, hello)),
      // A second writer continuing t:2 as well: the first one asked wins.
      store.save(makeCheckpoint('t', 3, { messages: 2, log: 0 }, hello)),
      store.save(makeCheckpoint('t', 3, { messages: 2, log: 0 })),
    ];
    expect(await outcomes(saves)).toEqual(['saved', 'saved', 'saved', 'CHECKPOINT_CONFLICT']);
    const stored = (await store.load('t'))!;
    expect(stored.checkpoint.id).toBe('t:3');
    expect(stored.conversation.messages).toHaveLength(3);
    store.close();
  });

  it('writes the saves still waiting before any other call, and before closing', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    const first = store.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }, hello));
    // Not awaited: the load is asked for after the save, so it sees it.
    expect((await store.load('t'))?.checkpoint.id).toBe('t:1');
    await first;
    const second = store.save(makeCheckpoint('t', 2, { messages: 1, log: 0 }));
    store.close();
    await second;
    const reopened = openStore({ filename });
    expect((await reopened.list('t')).map((c) => c.id)).toEqual(['t:1', 't:2']);
    reopened.close();
  });

  it('settles every save of a group as saving them one by one in that order would', async () => {
    // A save: a thread, which checkpoint of it (by sequence), and whether it is written against
    // an older head than the thread has (a stale writer); all of one run are asked for at once.
    const save = fc.record({
      thread: fc.constantFrom('x', 'y', 'z'),
      stale: fc.boolean(),
      messages: fc.nat({ max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(save, { minLength: 1, maxLength: 12 }), async (plan) => {
        const store = openStore({ filename: ':memory:' });
        const reference = new InMemoryCheckpointStore();
        const heads = new Map<string, { sequence: number; messages: number }>();
        const checkpoints: Checkpoint[] = plan.map(({ thread, stale, messages }) => {
          const head = heads.get(thread) ?? { sequence: 0, messages: 0 };
          const base =
            stale && head.sequence > 0 ? { sequence: head.sequence - 1, messages: 0 } : head;
          const checkpoint = makeCheckpoint(
            thread,
            base.sequence + 1,
            { messages: base.messages, log: 0 },
            Array.from({ length: messages }, (_, i) => ({ role: 'user', content: `m${i}` })),
          );
          if (!stale)
            heads.set(thread, { sequence: base.sequence + 1, messages: base.messages + messages });
          return checkpoint;
        });
        const grouped = await outcomes(checkpoints.map((c) => store.save(c)));
        const oneByOne: string[] = [];
        for (const c of checkpoints) oneByOne.push(...(await outcomes([reference.save(c)])));
        expect(grouped).toEqual(oneByOne);
        for (const thread of ['x', 'y', 'z']) {
          expect((await store.list(thread)).map((c) => c.id)).toEqual(
            (await reference.list(thread)).map((c) => c.id),
          );
          expect((await store.load(thread))?.conversation.messages).toEqual(
            (await reference.load(thread))?.conversation.messages,
          );
        }
        store.close();
      }),
      { numRuns: 60 },
    );
  });
});
