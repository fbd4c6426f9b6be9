import type { ConversationLogEntry } from '@skein/conversation';
import {
  CheckpointConflictError,
  checkLeaseOwner,
  checkLeaseRequest,
  type HeldLease,
  InvalidArgumentError,
  type LeaseRequest,
  type LLMMessage,
  mayTakeLease,
} from '@skein/spec';
import type { ThreadState } from '../thread/thread-state.js';
import type {
  Checkpoint,
  CheckpointInfo,
  CheckpointStore,
  StoredThread,
  ThreadInfo,
} from './checkpoint-store.js';
import { SAVED } from './saved.js';

/**
 * One stored checkpoint. Its state is kept whole (`base`) only when it differs from the one
 * before in more than its step, its current node and its variables; otherwise `base` is the last
 * whole state and `load` puts the checkpoint's state back together from it and those three. A
 * loop's ROUTE and VARIABLE nodes change nothing else, so a long thread keeps a few whole states
 * instead of one 18-field object per node.
 */
interface SavedCheckpoint {
  readonly id: string;
  readonly sequence: number;
  readonly createdAt: string;
  readonly messageCount: number;
  readonly logCount: number;
  readonly base: ThreadState;
  readonly step: number;
  readonly currentNodeId: string | undefined;
  readonly variables: ThreadState['variables'];
}

interface ThreadRecord {
  readonly messages: LLMMessage[];
  readonly log: ConversationLogEntry[];
  readonly checkpoints: SavedCheckpoint[];
  /** The latest checkpoint's state as saved: what the next one is compared with and what `load` returns. */
  last: ThreadState;
}

/** Whether `next` differs from `previous` in its step, current node and variables at most. */
function sameApartFromStep(previous: ThreadState, next: ThreadState): boolean {
  return (
    next.status === previous.status &&
    next.nodeOutputs === previous.nodeOutputs &&
    next.lastOutput === previous.lastOutput &&
    next.output === previous.output &&
    next.error === previous.error &&
    next.pending === previous.pending &&
    next.dynamicTools === previous.dynamicTools &&
    next.toolFailures === previous.toolFailures &&
    next.firedTriggers === previous.firedTriggers &&
    next.input === previous.input &&
    next.parent === previous.parent &&
    next.createdAt === previous.createdAt &&
    next.threadId === previous.threadId &&
    next.workflowId === previous.workflowId &&
    next.workflowVersion === previous.workflowVersion
  );
}

function saved(
  checkpoint: Checkpoint,
  base: ThreadState,
  messageCount: number,
  logCount: number,
): SavedCheckpoint {
  const { state } = checkpoint;
  return {
    id: checkpoint.id,
    sequence: checkpoint.sequence,
    createdAt: checkpoint.createdAt,
    messageCount,
    logCount,
    base,
    step: state.step,
    currentNodeId: state.currentNodeId,
    variables: state.variables,
  };
}

/** The state of `record`'s checkpoint `at`: the object saved when it was kept whole or is the latest. */
function stateAt(record: ThreadRecord, at: number): ThreadState {
  const { checkpoints } = record;
  if (at === checkpoints.length - 1) return record.last;
  const { base, step, currentNodeId, variables } = checkpoints[at]!;
  if (base.step === step && base.currentNodeId === currentNodeId && base.variables === variables)
    return base;
  return Object.freeze({ ...base, step, currentNodeId, variables });
}

function infoOf(threadId: string, saved: SavedCheckpoint): CheckpointInfo {
  return {
    id: saved.id,
    threadId,
    sequence: saved.sequence,
    createdAt: saved.createdAt,
    // A checkpoint kept as a change has its base's status (see `sameApartFromStep`).
    status: saved.base.status,
    step: saved.step,
    ...(saved.currentNodeId === undefined ? {} : { currentNodeId: saved.currentNodeId }),
    messageCount: saved.messageCount,
  };
}

/** How far a stored thread's conversation goes (made only for a conflict's error). */
function extentOf(record: ThreadRecord): { messages: number; log: number } {
  return { messages: record.messages.length, log: record.log.length };
}

/**
 * Checkpoints in memory. Thread states are immutable, so they are kept by reference (whole or as
 * a change of the one before, see `ThreadRecord`); messages are kept once per thread and each
 * checkpoint records how far the conversation went.
 */
export class InMemoryCheckpointStore implements CheckpointStore {
  readonly #threads = new Map<string, ThreadRecord>();
  readonly #leases = new Map<string, HeldLease>();

  // Not an async function: the engine saves after almost every node, and a settled promise
  // shared by every save costs no frame and no allocation. Failures still reject, never throw.
  save(checkpoint: Checkpoint): Promise<void> {
    try {
      this.#save(checkpoint);
      return SAVED;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #save(checkpoint: Checkpoint): void {
    if (checkpoint.owner !== undefined)
      checkLeaseOwner(checkpoint.threadId, this.#leases.get(checkpoint.threadId), checkpoint.owner);
    const record = this.#threads.get(checkpoint.threadId);
    if (!record) {
      this.#first(checkpoint);
      return;
    }
    const { from } = checkpoint.conversation;
    if (from.messages !== record.messages.length || from.log !== record.log.length)
      throw new CheckpointConflictError(checkpoint.threadId, extentOf(record), from);
    const { checkpoints } = record;
    const latest = checkpoints[checkpoints.length - 1];
    if ((checkpoint.parentId ?? undefined) !== latest?.id)
      throw new CheckpointConflictError(checkpoint.threadId, extentOf(record), from, {
        expected: latest?.id,
        got: checkpoint.parentId,
      });
    // Indexed: most saves add nothing, and a `for…of` makes an iterator even then.
    const { messages, log } = checkpoint.conversation;
    for (let i = 0; i < messages.length; i++) record.messages.push(messages[i]!);
    for (let i = 0; i < log.length; i++) record.log.push(log[i]!);
    const { state } = checkpoint;
    const base = latest && sameApartFromStep(record.last, state) ? latest.base : state;
    checkpoints.push(saved(checkpoint, base, record.messages.length, record.log.length));
    record.last = state;
  }

  /**
   * A thread's first checkpoint: its arrays made to size (a fan-out stores thousands of threads
   * of one checkpoint each; an array grown by push keeps room for 16 more).
   */
  #first(checkpoint: Checkpoint): void {
    const { from, messages, log } = checkpoint.conversation;
    if (from.messages !== 0 || from.log !== 0)
      throw new CheckpointConflictError(checkpoint.threadId, { messages: 0, log: 0 }, from);
    if ((checkpoint.parentId ?? undefined) !== undefined)
      throw new CheckpointConflictError(checkpoint.threadId, { messages: 0, log: 0 }, from, {
        expected: undefined,
        got: checkpoint.parentId,
      });
    const { state } = checkpoint;
    const record: ThreadRecord = {
      messages: messages.slice(),
      log: log.slice(),
      checkpoints: [saved(checkpoint, state, messages.length, log.length)],
      last: state,
    };
    this.#threads.set(checkpoint.threadId, record);
  }

  async load(threadId: string, checkpointId?: string): Promise<StoredThread | undefined> {
    const record = this.#threads.get(threadId);
    if (!record) return undefined;
    const { checkpoints } = record;
    const at =
      checkpointId === undefined
        ? checkpoints.length - 1
        : checkpoints.findIndex((c) => c.id === checkpointId);
    const found = checkpoints[at];
    if (!found) return undefined;
    return {
      checkpoint: infoOf(threadId, found),
      state: stateAt(record, at),
      conversation: {
        version: 1,
        messages: record.messages.slice(0, found.messageCount),
        log: record.log.slice(0, found.logCount),
      },
    };
  }

  async list(threadId: string): Promise<CheckpointInfo[]> {
    return (this.#threads.get(threadId)?.checkpoints ?? []).map((c) => infoOf(threadId, c));
  }

  async listThreads(): Promise<ThreadInfo[]> {
    const threads: ThreadInfo[] = [];
    for (const [threadId, record] of this.#threads) {
      const { checkpoints, last } = record;
      const latest = checkpoints[checkpoints.length - 1];
      if (!latest) continue;
      threads.push({
        threadId,
        workflowId: last.workflowId,
        workflowVersion: last.workflowVersion,
        status: last.status,
        step: last.step,
        checkpoints: checkpoints.length,
        lastCheckpointId: latest.id,
        updatedAt: latest.createdAt,
      });
    }
    return threads;
  }

  async delete(threadId: string): Promise<boolean> {
    this.#leases.delete(threadId);
    return this.#threads.delete(threadId);
  }

  async acquireLease(threadId: string, lease: LeaseRequest): Promise<boolean> {
    checkLeaseRequest(threadId, lease);
    if (!mayTakeLease(this.#leases.get(threadId), lease)) return false;
    this.#leases.set(threadId, { owner: lease.owner, expiresAt: lease.expiresAt });
    return true;
  }

  async releaseLease(threadId: string, owner: string): Promise<void> {
    if (this.#leases.get(threadId)?.owner === owner) this.#leases.delete(threadId);
  }

  async prune(threadId: string, options: { keepLast: number }): Promise<number> {
    const keep = options?.keepLast;
    if (typeof keep !== 'number' || !Number.isInteger(keep) || keep < 1)
      throw new InvalidArgumentError(
        'keepLast',
        `keepLast must be an integer >= 1, got ${String(keep)}`,
      );
    const record = this.#threads.get(threadId);
    if (!record) return 0;
    const drop = Math.max(0, record.checkpoints.length - keep);
    // Each kept checkpoint points at its whole state itself, so dropping older ones loses none.
    record.checkpoints.splice(0, drop);
    return drop;
  }
}
