import type { EncodedCheckpoint } from '@skein/core/store-kit';
import type { LeaseRequest } from '@skein/spec';
import type { Outcome } from './group-commit.js';
import type { AcquireRequest, ReleaseRequest } from './lease-writes.js';

/**
 * A call the store hands to its group commit, written in call order with the others of its turn.
 * `kind` is the call's name, so an error says which call it refused.
 */
export type GroupWrite =
  | { readonly kind: 'save'; readonly checkpoint: EncodedCheckpoint }
  | { readonly kind: 'acquireLease'; readonly threadId: string; readonly lease: LeaseRequest }
  | { readonly kind: 'releaseLease'; readonly threadId: string; readonly owner: string };

/** What writing one returned: whether `acquireLease` got the lease; nothing for the others. */
export type WriteResult = boolean | undefined;

/** How a round's calls of each kind are written: each resolves to one outcome per call, in order. */
export interface RoundWriters {
  saves(checkpoints: readonly EncodedCheckpoint[]): Promise<readonly Outcome<WriteResult>[]>;
  acquires(requests: readonly AcquireRequest[]): Promise<readonly Outcome<WriteResult>[]>;
  releases(requests: readonly ReleaseRequest[]): Promise<readonly Outcome<WriteResult>[]>;
}

/**
 * One round of the group commit: calls of distinct threads, so their order among themselves
 * cannot change an outcome. Its saves, the leases it takes and those it gives up go as one
 * statement each, side by side; each call's outcome comes back in the round's order.
 */
export async function writeRound(
  round: readonly GroupWrite[],
  writers: RoundWriters,
): Promise<Outcome<WriteResult>[]> {
  const saves: EncodedCheckpoint[] = [];
  const acquires: AcquireRequest[] = [];
  const releases: ReleaseRequest[] = [];
  for (const write of round)
    if (write.kind === 'save') saves.push(write.checkpoint);
    else if (write.kind === 'acquireLease') acquires.push(write);
    else releases.push(write);
  const outcomes = await Promise.all([
    writers.saves(saves),
    writers.acquires(acquires),
    writers.releases(releases),
  ]);
  // Each kind's outcomes are in the order of that kind's calls: take them back in round order.
  const taken = [0, 0, 0];
  return round.map((write) => {
    const kind = write.kind === 'save' ? 0 : write.kind === 'acquireLease' ? 1 : 2;
    return outcomes[kind]![taken[kind]!++]!;
  });
}
