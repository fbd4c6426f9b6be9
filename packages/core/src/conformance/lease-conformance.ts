import { SNAPSHOT_VERSION } from '@skein/conversation';
import { expect, it } from 'vitest';
import type { Checkpoint } from '../checkpoint/checkpoint-store.js';
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

  it('settles saves and lease calls asked for at once as awaiting them one by one would', () =>
    withStore(({ store }) => checkCallsAtOnceAgainstModel(store, 60)));
}
