import type { LeaseRequest } from './checkpoint-store.js';
import { InvalidArgumentError } from './errors/invalid-argument-error.js';
import { ThreadConflictError } from './errors/thread-conflict-error.js';

/** A thread's lease as a store keeps it. */
export interface HeldLease {
  readonly owner: string;
  readonly expiresAt: number;
}

/** Refuses a lease request a store cannot keep: an empty owner, or times that are not numbers. */
export function checkLeaseRequest(threadId: unknown, lease: LeaseRequest): void {
  if (typeof threadId !== 'string' || threadId === '')
    throw new InvalidArgumentError('threadId', 'threadId must be a non-empty string');
  if (typeof lease?.owner !== 'string' || lease.owner === '')
    throw new InvalidArgumentError('lease.owner', 'a lease owner must be a non-empty string');
  for (const key of ['expiresAt', 'now'] as const)
    if (!Number.isFinite(lease[key]))
      throw new InvalidArgumentError(
        `lease.${key}`,
        `lease.${key} must be a finite number (epoch ms)`,
      );
}

/** The rule every store applies: free, expired, or already the asker's. */
export function mayTakeLease(held: HeldLease | undefined, lease: LeaseRequest): boolean {
  return held === undefined || held.owner === lease.owner || held.expiresAt <= lease.now;
}

/** The fence every store applies to a save: refused when another owner holds the thread. */
export function checkLeaseOwner(
  threadId: string,
  held: HeldLease | undefined,
  owner: string | undefined,
): void {
  if (owner === undefined || held === undefined || held.owner === owner) return;
  throw new ThreadConflictError(
    'THREAD_LEASED',
    threadId,
    `Thread ${threadId} is now run by ${held.owner}: this process (${owner}) lost its lease, so its checkpoint is refused`,
    { details: { owner, holder: held.owner } },
  );
}
