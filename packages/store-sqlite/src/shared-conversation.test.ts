import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, withRaw } from './test-support/driver.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skein-fork-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const say = (from: number, n: number, who: string) =>
  Array.from({ length: n }, (_, i) => ({ role: 'user', content: `${who} ${from + i}` }));

/** The fork's first checkpoint: `count` messages of `origin` at its checkpoint `sequence`, then its own. */
function forkCheckpoint(
  threadId: string,
  origin: string,
  sequence: number,
  count: number,
  own: number,
) {
  return {
    ...makeCheckpoint(threadId, 1, { messages: count, log: 0 }, say(count, own, threadId)),
    forkOf: { threadId: origin, checkpointId: `${origin}:${sequence}` },
  };
}

/** Rows the messages table holds for a thread (its own, not the ones it shares). */
function ownRows(filename: string, threadId: string): number {
  return withRaw(
    filename,
    (db) =>
      db
        .column<[string], number>(
          'SELECT count(*) FROM messages WHERE thread = (SELECT id FROM threads WHERE thread_id = ?)',
        )
        .get(threadId)!,
    { readonly: true },
  );
}

describe('a fork on SQLite', () => {
  it('shares the rows of the conversation it continues, and copies them only when their thread goes', async () => {
    const filename = join(dir, 'forks.db');
    const store = openStore({ filename });
    // root: 2,000 messages in two checkpoints; middle forks root at its first (1,500 messages)
    // and adds 300; leaf forks middle at 1,700 and adds 10.
    await store.save(makeCheckpoint('root', 1, { messages: 0, log: 0 }, say(0, 1500, 'root')));
    await store.save(makeCheckpoint('root', 2, { messages: 1500, log: 0 }, say(1500, 500, 'root')));
    await store.save(forkCheckpoint('middle', 'root', 1, 1500, 300));
    await store.save(forkCheckpoint('leaf', 'middle', 1, 1800, 10));
    expect(ownRows(filename, 'middle')).toBe(300);
    expect(ownRows(filename, 'leaf')).toBe(10);

    const middle = (await store.load('middle'))!.conversation.messages;
    const leaf = (await store.load('leaf'))!.conversation.messages;
    expect(middle).toEqual([...say(0, 1500, 'root'), ...say(1500, 300, 'middle')]);
    expect(leaf).toEqual([...middle, ...say(1800, 10, 'leaf')]);
    // Pruning never touches messages; deleting the middle gives the leaf the 300 it read there.
    await store.prune('middle', { keepLast: 1 });
    expect(await store.delete('middle')).toBe(true);
    expect(ownRows(filename, 'leaf')).toBe(310);
    expect((await store.load('leaf'))!.conversation.messages).toEqual(leaf);
    // Deleting the root gives it the 1,500 it still read there; nothing else is left to share.
    expect(await store.delete('root')).toBe(true);
    expect(ownRows(filename, 'leaf')).toBe(1810);
    store.close();
    const reopened = openStore({ filename });
    expect((await reopened.load('leaf'))!.conversation.messages).toEqual(leaf);
    // It goes on from where it was.
    await reopened.save(
      makeCheckpoint('leaf', 2, { messages: 1810, log: 0 }, say(1810, 1, 'leaf')),
    );
    expect((await reopened.load('leaf'))!.conversation.messages).toHaveLength(1811);
    expect(await reopened.load('leaf', 'leaf:1')).toMatchObject({
      checkpoint: { messageCount: 1810 },
    });
    reopened.close();
  });

  it('reads only what was shared at the fork: the origin goes on without the fork seeing it', async () => {
    const store = openStore({ filename: ':memory:' });
    await store.save(makeCheckpoint('a', 1, { messages: 0, log: 0 }, say(0, 5, 'a')));
    await store.save(forkCheckpoint('b', 'a', 1, 5, 1));
    await store.save(makeCheckpoint('a', 2, { messages: 5, log: 0 }, say(5, 3, 'a')));
    expect((await store.load('b'))!.conversation.messages).toEqual([
      ...say(0, 5, 'a'),
      ...say(5, 1, 'b'),
    ]);
    // Deleting the origin after it went on copies the five the fork shared, not the three after.
    await store.delete('a');
    expect((await store.load('b'))!.conversation.messages).toEqual([
      ...say(0, 5, 'a'),
      ...say(5, 1, 'b'),
    ]);
    store.close();
  });
});
