import type { InboxPost, LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { makeCheckpoint } from '../testing/make-checkpoint.js';
import type { ConformanceSubject } from './checkpoint-store-conformance.js';

type InboxStore = CheckpointStore &
  Required<Pick<CheckpointStore, 'postMessage' | 'pendingMessages'>>;

const user = (text: string): LLMMessage => ({ role: 'user', content: text });
const post = (id: string, text: string, mode: InboxPost['mode'] = 'queue'): InboxPost => ({
  id,
  message: user(text),
  mode,
  postedAt: '2026-11-29T16:00:00.000Z',
});
const texts = (posted: readonly { message: LLMMessage }[]) => posted.map((p) => p.message.content);

/** A stored thread `t` with one message, at checkpoint `t:1`. */
async function storedThread(store: CheckpointStore, threadId = 't'): Promise<void> {
  await store.save(makeCheckpoint(threadId, 1, { messages: 0, log: 0 }, [user('hello')]));
}

/**
 * A thread's inbox (decision 0036): what a store offering `postMessage` and `pendingMessages` must
 * do. Posts are durable, ordered and idempotent by id; a checkpoint takes them in the same commit
 * as its save, never backwards and never past the last post; a refused save takes nothing;
 * deleting a thread deletes its inbox, and a fork starts with none.
 */
export function runInboxConformance(name: string, create: () => Promise<ConformanceSubject>): void {
  describe(`inbox: ${name}`, () => {
    const withStore = async (
      test: (store: InboxStore, subject: ConformanceSubject) => Promise<void>,
    ) => {
      const subject = await create();
      const { store } = subject;
      if (!store.postMessage || !store.pendingMessages)
        throw new Error(`${name} has no inbox: postMessage and pendingMessages are needed`);
      try {
        await test(store as InboxStore, subject);
      } finally {
        await store.close?.();
        await subject.cleanup?.();
      }
    };

    it('numbers posts in order, once per id, and lists those not taken', () =>
      withStore(async (store, { reopen }) => {
        await storedThread(store);
        expect(await store.postMessage('t', post('a', 'one'))).toEqual({
          seq: 1,
          duplicate: false,
        });
        expect(await store.postMessage('t', post('b', 'two', 'steer'))).toEqual({
          seq: 2,
          duplicate: false,
        });
        // The sender retried: the same message is not posted twice.
        expect(await store.postMessage('t', post('a', 'one again'))).toEqual({
          seq: 1,
          duplicate: true,
        });
        const reader = reopen ? await reopen() : store;
        const pending = await reader.pendingMessages!('t');
        expect(pending.map((p) => [p.seq, p.id, p.mode])).toEqual([
          [1, 'a', 'queue'],
          [2, 'b', 'steer'],
        ]);
        expect(texts(pending)).toEqual(['one', 'two']);
        expect(await store.pendingMessages('unknown')).toEqual([]);
      }));

    it('keeps each sender’s order when many post at once', () =>
      withStore(async (store) => {
        await storedThread(store);
        const senders = Array.from({ length: 5 }, (_, s) => s);
        await Promise.all(
          senders.map(async (s) => {
            for (let i = 0; i < 4; i++)
              await store.postMessage('t', post(`${s}-${i}`, `${s}:${i}`));
          }),
        );
        const pending = await store.pendingMessages('t');
        expect(pending.map((p) => p.seq)).toEqual(pending.map((_, i) => i + 1));
        for (const s of senders)
          expect(pending.filter((p) => p.id.startsWith(`${s}-`)).map((p) => p.id)).toEqual(
            [0, 1, 2, 3].map((i) => `${s}-${i}`),
          );
      }));

    it('marks posts taken in the commit of the checkpoint that shows them', () =>
      withStore(async (store, { reopen }) => {
        await storedThread(store);
        for (const [id, text] of [
          ['a', 'one'],
          ['b', 'two'],
          ['c', 'three'],
        ])
          await store.postMessage('t', post(id!, text!));
        await store.save({
          ...makeCheckpoint('t', 2, { messages: 1, log: 0 }, [user('one'), user('two')]),
          inboxTaken: 2,
        });
        const reader = reopen ? await reopen() : store;
        expect(texts(await reader.pendingMessages!('t'))).toEqual(['three']);
        // A save that takes nothing more leaves the mark where it was.
        await store.save(makeCheckpoint('t', 3, { messages: 3, log: 0 }));
        expect(texts(await store.pendingMessages('t'))).toEqual(['three']);
      }));

    it('takes nothing when the save is refused, and refuses a mark that goes back or past the last post', () =>
      withStore(async (store) => {
        await storedThread(store);
        await store.postMessage('t', post('a', 'one'));
        await store.postMessage('t', post('b', 'two'));
        // Not continuing the thread (a node run again from a stale checkpoint): refused whole.
        await expect(
          store.save({
            ...makeCheckpoint('t', 2, { messages: 0, log: 0 }, [user('one')]),
            inboxTaken: 1,
          }),
        ).rejects.toMatchObject({ code: 'CHECKPOINT_CONFLICT' });
        expect(texts(await store.pendingMessages('t'))).toEqual(['one', 'two']);
        await expect(
          store.save({ ...makeCheckpoint('t', 2, { messages: 1, log: 0 }), inboxTaken: 3 }),
        ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'inboxTaken' });
        await store.save({ ...makeCheckpoint('t', 2, { messages: 1, log: 0 }), inboxTaken: 1 });
        await expect(
          store.save({ ...makeCheckpoint('t', 3, { messages: 1, log: 0 }), inboxTaken: 0 }),
        ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'inboxTaken' });
        expect(texts(await store.pendingMessages('t'))).toEqual(['two']);
        expect((await store.list('t')).map((c) => c.sequence)).toEqual([1, 2]);
      }));

    it('refuses a stale writer, whose mark is behind what the thread took since, as CHECKPOINT_CONFLICT', () =>
      withStore(async (store) => {
        await storedThread(store);
        await store.postMessage('t', post('a', 'one'));
        await store.postMessage('t', post('b', 'two'));
        await store.save({
          ...makeCheckpoint('t', 2, { messages: 1, log: 0 }, [user('one'), user('two')]),
          inboxTaken: 2,
        });
        // A process that read the thread at t:1 and took only the first: its view is stale, and
        // a send survives a conflict (it reads the thread again), not a refused argument.
        await expect(
          store.save({
            ...makeCheckpoint('t', 2, { messages: 1, log: 0 }, [user('one')]),
            inboxTaken: 1,
          }),
        ).rejects.toMatchObject({ code: 'CHECKPOINT_CONFLICT' });
        expect((await store.list('t')).map((c) => c.sequence)).toEqual([1, 2]);
      }));

    it('refuses a post to a thread not stored, or a post that is not one, storing nothing', () =>
      withStore(async (store) => {
        await expect(store.postMessage('nobody', post('a', 'one'))).rejects.toMatchObject({
          code: 'CHECKPOINT_NOT_FOUND',
        });
        await storedThread(store);
        for (const [bad, argument] of [
          [{ ...post('x', 'one'), id: '' }, 'post.id'],
          [{ ...post('x', 'one'), mode: 'later' }, 'post.mode'],
          [{ ...post('x', 'one'), postedAt: 'yesterday' }, 'post.postedAt'],
        ] as const)
          await expect(store.postMessage('t', bad as InboxPost)).rejects.toMatchObject({
            code: 'INVALID_ARGUMENT',
            argument,
          });
        expect(await store.pendingMessages('t')).toEqual([]);
      }));

    it('deletes the inbox with its thread', () =>
      withStore(async (store) => {
        await storedThread(store);
        await store.postMessage('t', post('a', 'one'));
        expect(await store.delete('t')).toBe(true);
        expect(await store.pendingMessages('t')).toEqual([]);
        await storedThread(store);
        // A thread of the same id starts with an empty inbox, and the old id posts anew.
        expect(await store.pendingMessages('t')).toEqual([]);
        expect(await store.postMessage('t', post('a', 'one'))).toEqual({
          seq: 1,
          duplicate: false,
        });
      }));
  });
}
