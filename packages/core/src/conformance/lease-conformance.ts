import { SNAPSHOT_VERSION } from '@skein/conversation';
import { expect, it } from 'vitest';
import type { Checkpoint } from '../checkpoint/checkpoint-store.js';
import { makeCheckpoint } from '../testing/make-checkpoint.js';
import { checkCallsAtOnceAgainstModel } from './calls-at-once-model.js';
import type { ConformanceSubject } from './checkpoint-store-conformance.js';

type WithStore = (test: (subject: ConformanceSubject) => Promise<void>) => Promise<void>;

/** A thread's first checkpoint, written by `owner`: the smallest save a store can be asked for. */
function firstCheckpoint(threadId: string, owner: string): Checkpoint {
  return {
    id: `${threadId}:1`,
    threadId,
    sequence: 1,
    createdAt: new Date(0).toISOString(),
    owner,
    state: Object.freeze({
      threadId,
      workflowId: 'lease',
      workflowVersion: '1',
      status: 'RUNNING',
      step: 0,
      currentNodeId: 'start',
      variables: {},
      nodeOutputs: {},
      dynamicTools: [],
      toolFailures: {},
      firedTriggers: [],
      createdAt: new Date(0).toISOString(),
    }),
    conversation: {
      version: SNAPSHOT_VERSION,
      from: { messages: 0, log: 0 },
      messages: [],
      log: [],
    },
  };
}

/** Lease cases of the store conformance suite: who may take, renew, give up and write a thread. */
export function leaseConformance(withStore: WithStore): void {
  it('grants a free lease, renews it for its owner and refuses another owner until it expires', () =>
    withStore(async ({ store }) => {
      expect(await store.acquireLease('t', { owner: 'a', expiresAt: 1_000, now: 0 })).toBe(true);
      expect(await store.acquireLease('t', { owner: 'a', expiresAt: 2_000, now: 500 })).toBe(true);
      // Renewed to 2,000: still a's at 1,500.
      expect(await store.acquireLease('t', { owner: 'b', expiresAt: 3_000, now: 1_500 })).toBe(
        false,
      );
      expect(await store.acquireLease('t', { owner: 'b', expiresAt: 3_000, now: 2_000 })).toBe(
        true,
      );
      expect(await store.acquireLease('t', { owner: 'a', expiresAt: 4_000, now: 2_500 })).toBe(
        false,
      );
      // Leases are per thread.
      expect(await store.acquireLease('u', { owner: 'a', expiresAt: 4_000, now: 2_500 })).toBe(
        true,
      );
    }));

  it('gives a lease up only for its owner', () =>
    withStore(async ({ store }) => {
      await store.acquireLease('t', { owner: 'a', expiresAt: 1_000, now: 0 });
      await store.releaseLease('t', 'b');
      expect(await store.acquireLease('t', { owner: 'b', expiresAt: 1_000, now: 10 })).toBe(false);
      await store.releaseLease('t', 'a');
      expect(await store.acquireLease('t', { owner: 'b', expiresAt: 1_000, now: 10 })).toBe(true);
    }));

  it('grants one of many owners asking for a free lease at once', () =>
    withStore(async ({ store }) => {
      const owners = ['a', 'b', 'c', 'd', 'e', 'f'];
      const granted = await Promise.all(
        owners.map((owner) => store.acquireLease('race', { owner, expiresAt: 1_000, now: 0 })),
      );
      expect(granted.filter(Boolean)).toHaveLength(1);
    }));

  it('refuses a checkpoint from an owner that lost the lease, and keeps what it held', () =>
    withStore(async ({ store, reopen }) => {
      await store.acquireLease('fenced', { owner: 'a', expiresAt: 1_000, now: 0 });
      // The lease outlives the process that took it.
      const reopened = reopen ? await reopen() : store;
      await expect(reopened.save(firstCheckpoint('fenced', 'b'))).rejects.toMatchObject({
        code: 'THREAD_LEASED',
      });
      expect(await reopened.load('fenced')).toBeUndefined();
      await reopened.save(firstCheckpoint('fenced', 'a'));
      expect((await reopened.load('fenced'))!.checkpoint.id).toBe('fenced:1');
      if (reopened !== store) await reopened.close?.();
    }));

  it('refuses a lease request it cannot keep', () =>
    withStore(async ({ store }) => {
      await expect(
        store.acquireLease('t', { owner: '', expiresAt: 1, now: 0 }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(
        store.acquireLease('t', { owner: 'a', expiresAt: Number.NaN, now: 0 }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }));

  it('lets each call see exactly the calls of its thread asked for before it (a worked example)', () =>
    withStore(async ({ store }) => {
      const hello = [{ role: 'user', content: 'hello' }];
      const lease = (owner: string, now: number) => ({ owner, expiresAt: now + 100, now });
      const after = (threadId: string, sequence: number, owner: string) => ({
        ...makeCheckpoint(threadId, sequence, { messages: 1, log: 0 }),
        owner,
      });
      for (const id of ['t0', 't1'])
        await store.save(makeCheckpoint(id, 1, { messages: 0, log: 0 }, hello));
      // None awaited before the next is asked: a store may write them in one group.
      const calls = [
        store.acquireLease('t0', lease('a', 0)),
        // a's save is written before b asks for the lease…
        store.save(after('t0', 2, 'a')),
        store.releaseLease('t0', 'a'),
        // …which b then gets, given up by a before;
        store.acquireLease('t0', lease('b', 10)),
        // so a's next save is fenced out and b's goes on from a's.
        store.save(after('t0', 3, 'a')),
        store.save(after('t0', 3, 'b')),
        // A lease asked for before a save fences that save.
        store.acquireLease('t1', lease('b', 0)),
        store.save(after('t1', 2, 'a')),
      ];
      const settled = await Promise.all(
        calls.map((call: Promise<unknown>) =>
          call.then(
            (value) => value ?? 'done',
            (error: { code?: string }) => error.code ?? String(error),
          ),
        ),
      );
      expect(settled).toEqual([
        true,
        'done',
        'done',
        true,
        'THREAD_LEASED',
        'done',
        true,
        'THREAD_LEASED',
      ]);
      expect((await store.list('t0')).map((c) => c.id)).toEqual(['t0:1', 't0:2', 't0:3']);
      expect((await store.list('t1')).map((c) => c.id)).toEqual(['t1:1']);
    }));

  it('settles saves and lease calls asked for at once as awaiting them one by one would', () =>
    withStore(({ store }) => checkCallsAtOnceAgainstModel(store, 60)));
}
