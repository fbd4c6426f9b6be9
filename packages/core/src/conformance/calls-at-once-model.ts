import fc from 'fast-check';
import { expect } from 'vitest';
import type { Checkpoint, CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { makeCheckpoint } from '../testing/make-checkpoint.js';

// Saves and lease calls of a few threads, all asked for at once (none awaited before the next is
// asked), settle as the same calls awaited one by one in that order settle on the in-memory store:
// a store may write them together (group commit), but each call sees exactly the calls asked for
// before it, a refused call fails alone, and what is stored afterwards is the same.

type Call =
  | { kind: 'save'; thread: number; owner?: Owner; stale: boolean; messages: number }
  | { kind: 'acquireLease'; thread: number; owner: Owner; now: number }
  | { kind: 'releaseLease'; thread: number; owner: Owner };

type Owner = 'a' | 'b';

const THREADS = 3;
/** How long a lease lasts; `now` moves in steps of half of it, so leases expire within a run. */
const LEASE_MS = 100;
const thread = fc.integer({ min: 0, max: THREADS - 1 });
const owner = fc.constantFrom<Owner>('a', 'b');

const call: fc.Arbitrary<Call> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant('save' as const),
        thread,
        owner,
        stale: fc.boolean(),
        messages: fc.integer({ min: 0, max: 2 }),
      },
      { requiredKeys: ['kind', 'thread', 'stale', 'messages'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('acquireLease' as const),
      thread,
      owner,
      now: fc.integer({ min: 0, max: 4 }).map((n) => (n * LEASE_MS) / 2),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('releaseLease' as const), thread, owner }),
  },
);

/**
 * The checkpoints of a plan, built as a writer that knows each thread's head would build them; a
 * stale save continues the head before the latest (a second writer that fell behind). Whether a
 * save is refused does not move the head: the plan is fixed before anything is called.
 */
function checkpointsOf(plan: readonly Call[], ids: readonly string[]): (Checkpoint | undefined)[] {
  const heads = new Map<string, { sequence: number; messages: number }>();
  return plan.map((next) => {
    if (next.kind !== 'save') return undefined;
    const threadId = ids[next.thread]!;
    const head = heads.get(threadId) ?? { sequence: 0, messages: 0 };
    const base =
      next.stale && head.sequence > 0 ? { sequence: head.sequence - 1, messages: 0 } : head;
    const checkpoint = makeCheckpoint(
      threadId,
      base.sequence + 1,
      { messages: base.messages, log: 0 },
      Array.from({ length: next.messages }, (_, i) => ({ role: 'user', content: `m${i}` })),
    );
    if (!next.stale)
      heads.set(threadId, { sequence: base.sequence + 1, messages: base.messages + next.messages });
    return next.owner === undefined ? checkpoint : { ...checkpoint, owner: next.owner };
  });
}

/** Asks `store` for one call; resolves to how it settled: its value, or its error's code. */
function ask(
  store: CheckpointStore,
  next: Call,
  threadId: string,
  checkpoint: Checkpoint | undefined,
): Promise<unknown> {
  const settled =
    next.kind === 'save'
      ? store.save(checkpoint!).then(() => 'saved')
      : next.kind === 'acquireLease'
        ? store.acquireLease(threadId, {
            owner: next.owner,
            expiresAt: next.now + LEASE_MS,
            now: next.now,
          })
        : store.releaseLease(threadId, next.owner).then(() => 'released');
  return settled.catch((error: { code?: string }) => error.code ?? String(error));
}

/** What a thread holds afterwards: its checkpoints, latest conversation and who may take it. */
async function contents(store: CheckpointStore, threadId: string) {
  const probe = { owner: 'probe', expiresAt: 10_000, now: LEASE_MS / 2 };
  return {
    checkpoints: (await store.list(threadId)).map((c) => c.id),
    messages: (await store.load(threadId))?.conversation.messages,
    // Last, as it takes the lease when free: free at `now` 50 means no lease or an expired one.
    free: await store.acquireLease(threadId, probe),
  };
}

/**
 * Runs `runs` plans of up to 14 calls against `store`, each on threads of its own, and checks
 * every outcome and what is stored against the in-memory store awaited call by call.
 */
export async function checkCallsAtOnceAgainstModel(
  store: CheckpointStore,
  runs: number,
): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 14 }), async (plan) => {
      const prefix = `at-once${++run}`;
      const ids = Array.from({ length: THREADS }, (_, i) => `${prefix}-${'xyz'[i]}`);
      const checkpoints = checkpointsOf(plan, ids);
      const atOnce = await Promise.all(
        plan.map((next, i) => ask(store, next, ids[next.thread]!, checkpoints[i])),
      );
      const model = new InMemoryCheckpointStore();
      const oneByOne: unknown[] = [];
      for (const [i, next] of plan.entries())
        oneByOne.push(await ask(model, next, ids[next.thread]!, checkpoints[i]));
      expect(atOnce).toEqual(oneByOne);
      for (const threadId of ids)
        expect(await contents(store, threadId)).toEqual(await contents(model, threadId));
    }),
    { numRuns: runs },
  );
}
