import type { ConversationLogEntry } from '@skein/conversation';
import {
  CheckpointConflictError,
  CheckpointNotFoundError,
  checkLeaseOwner,
  checkLeaseRequest,
  type HeldLease,
  type InboxPost,
  InvalidArgumentError,
  type LeaseRequest,
  type LLMMessage,
  mayTakeLease,
  type PostedMessage,
} from '@skein/spec';
import type { ThreadState } from '../thread/thread-state.js';
import { type AttachmentUse, extractAttachments, type StoredAttachment } from './attachments.js';
import { checkInboxPost, checkInboxTaken, MemoryInbox } from './inbox.js';

/** The inbox of a thread no one posted to. */
const NO_POSTS = { taken: 0, last: 0 } as const;

import type {
  Checkpoint,
  CheckpointInfo,
  CheckpointStore,
  StoredState,
  StoredThread,
  StoredWake,
  ThreadInfo,
} from './checkpoint-store.js';

/** One stored checkpoint: its state (immutable, kept by reference) and how far its conversation went. */
interface SavedCheckpoint {
  readonly id: string;
  readonly sequence: number;
  readonly createdAt: string;
  readonly messageCount: number;
  readonly logCount: number;
  readonly state: ThreadState;
  readonly wakeAt: number | undefined;
  readonly waitsFor: string | undefined;
}

interface ThreadRecord {
  readonly messages: LLMMessage[];
  readonly log: ConversationLogEntry[];
  readonly checkpoints: SavedCheckpoint[];
  /** The attachments its messages refer to, each with the first position that does. */
  readonly uses: Map<string, number>;
}

function saved(checkpoint: Checkpoint, messageCount: number, logCount: number): SavedCheckpoint {
  return {
    id: checkpoint.id,
    sequence: checkpoint.sequence,
    createdAt: checkpoint.createdAt,
    messageCount,
    logCount,
    state: checkpoint.state,
    wakeAt: checkpoint.wakeAt,
    waitsFor: checkpoint.waitsFor,
  };
}

function infoOf(threadId: string, saved: SavedCheckpoint): CheckpointInfo {
  return {
    id: saved.id,
    threadId,
    sequence: saved.sequence,
    createdAt: saved.createdAt,
    status: saved.state.status,
    step: saved.state.step,
    ...(saved.state.currentNodeId === undefined
      ? {}
      : { currentNodeId: saved.state.currentNodeId }),
    messageCount: saved.messageCount,
  };
}

/** How far a stored thread's conversation goes (made only for a conflict's error). */
function extentOf(record: ThreadRecord): { messages: number; log: number } {
  return { messages: record.messages.length, log: record.log.length };
}

/** The continuity rule for a stored thread: the delta starts at its end, its parent is the head. */
function checkContinuity(checkpoint: Checkpoint, record: ThreadRecord): void {
  const { from } = checkpoint.conversation;
  if (from.messages !== record.messages.length || from.log !== record.log.length)
    throw new CheckpointConflictError(checkpoint.threadId, extentOf(record), from);
  const latest = record.checkpoints.at(-1);
  if ((checkpoint.parentId ?? undefined) !== latest?.id)
    throw new CheckpointConflictError(checkpoint.threadId, extentOf(record), from, {
      expected: latest?.id,
      got: checkpoint.parentId,
    });
}

/**
 * Checkpoints in memory. Thread states are immutable, so they are kept by reference; messages are
 * kept once per thread and each checkpoint records how far the conversation went. Media bytes are
 * kept once by digest, as the durable stores keep them (decision 0033): a loaded message refers to
 * them, and `readAttachment` gives them back.
 */
export class InMemoryCheckpointStore implements CheckpointStore {
  readonly #threads = new Map<string, ThreadRecord>();
  readonly #leases = new Map<string, HeldLease>();
  readonly #attachments = new Map<string, StoredAttachment>();
  readonly #inboxes = new Map<string, MemoryInbox>();

  save(checkpoint: Checkpoint): Promise<void> {
    try {
      this.#save(checkpoint);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #save(checkpoint: Checkpoint): void {
    if (checkpoint.owner !== undefined)
      checkLeaseOwner(checkpoint.threadId, this.#leases.get(checkpoint.threadId), checkpoint.owner);
    const record = this.#threads.get(checkpoint.threadId);
    const inbox = this.#inboxes.get(checkpoint.threadId);
    // The continuity rule first: a stale writer's inbox mark is behind too, and it is refused
    // as the stale writer it is.
    if (record) checkContinuity(checkpoint, record);
    checkInboxTaken(checkpoint.threadId, checkpoint.inboxTaken, inbox?.extent ?? NO_POSTS);
    if (!record) {
      this.#first(checkpoint);
      return;
    }
    const { from } = checkpoint.conversation;
    const { checkpoints } = record;
    const extracted = extractAttachments(checkpoint.conversation.messages, from.messages);
    this.#keep(extracted.attachments);
    this.#use(record.uses, extracted.uses);
    record.messages.push(...extracted.messages);
    record.log.push(...checkpoint.conversation.log);
    checkpoints.push(saved(checkpoint, record.messages.length, record.log.length));
    inbox?.take(checkpoint.inboxTaken);
  }

  postMessage(threadId: string, post: InboxPost): Promise<{ seq: number; duplicate: boolean }> {
    try {
      checkInboxPost(post);
      if (!this.#threads.has(threadId)) throw new CheckpointNotFoundError(threadId);
      let inbox = this.#inboxes.get(threadId);
      if (!inbox) {
        inbox = new MemoryInbox();
        this.#inboxes.set(threadId, inbox);
      }
      return Promise.resolve(inbox.post(post));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async pendingMessages(threadId: string): Promise<PostedMessage[]> {
    return this.#inboxes.get(threadId)?.pending() ?? [];
  }

  /** Records uses of attachments stored (a ref of the app's own names bytes it never had). */
  #use(uses: Map<string, number>, added: readonly AttachmentUse[]): void {
    for (const use of added)
      if (!uses.has(use.digest) && this.#attachments.has(use.digest))
        uses.set(use.digest, use.position);
  }

  #keep(attachments: readonly StoredAttachment[]): void {
    for (const attachment of attachments)
      if (!this.#attachments.has(attachment.digest))
        // A copy: the caller's bytes may change after the save.
        this.#attachments.set(attachment.digest, {
          ...attachment,
          bytes: attachment.bytes.slice(),
        });
  }

  #first(checkpoint: Checkpoint): void {
    const { from, messages, log } = checkpoint.conversation;
    const base = this.#forkBase(checkpoint);
    const start = { messages: base.messages.length, log: base.log.length };
    if (from.messages !== start.messages || from.log !== start.log)
      throw new CheckpointConflictError(checkpoint.threadId, start, from);
    if ((checkpoint.parentId ?? undefined) !== undefined)
      throw new CheckpointConflictError(checkpoint.threadId, start, from, {
        expected: undefined,
        got: checkpoint.parentId,
      });
    const extracted = extractAttachments(messages, start.messages);
    this.#keep(extracted.attachments);
    const uses = new Map(base.uses);
    this.#use(uses, extracted.uses);
    // Messages are immutable and kept by reference: a fork's copy of the list shares them.
    const record: ThreadRecord = {
      messages: [...base.messages, ...extracted.messages],
      log: [...base.log, ...log],
      checkpoints: [saved(checkpoint, start.messages + messages.length, start.log + log.length)],
      uses,
    };
    this.#threads.set(checkpoint.threadId, record);
  }

  /** The conversation a first checkpoint continues: a fork's origin, or none. */
  #forkBase(checkpoint: Checkpoint): Omit<ThreadRecord, 'checkpoints'> {
    const origin = checkpoint.forkOf;
    if (!origin) return { messages: [], log: [], uses: new Map() };
    const record = this.#threads.get(origin.threadId);
    const at = record?.checkpoints.find((c) => c.id === origin.checkpointId);
    if (!record || !at) throw new CheckpointNotFoundError(origin.threadId, origin.checkpointId);
    // A fork reads the attachments of the messages it continues, and no later ones.
    const uses = [...record.uses].filter(([, position]) => position < at.messageCount);
    return {
      messages: record.messages.slice(0, at.messageCount),
      log: record.log.slice(0, at.logCount),
      uses: new Map(uses),
    };
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
      state: found.state,
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

  async listStates(threadId: string): Promise<StoredState[]> {
    return (this.#threads.get(threadId)?.checkpoints ?? []).map((c) => ({
      checkpoint: infoOf(threadId, c),
      state: c.state,
    }));
  }

  async listThreads(): Promise<ThreadInfo[]> {
    const threads: ThreadInfo[] = [];
    for (const [threadId, record] of this.#threads) {
      const latest = record.checkpoints.at(-1);
      if (!latest) continue;
      const last = latest.state;
      threads.push({
        threadId,
        workflowId: last.workflowId,
        workflowVersion: last.workflowVersion,
        status: last.status,
        step: last.step,
        checkpoints: record.checkpoints.length,
        lastCheckpointId: latest.id,
        updatedAt: latest.createdAt,
      });
    }
    return threads;
  }

  async listWakes(): Promise<StoredWake[]> {
    const wakes: StoredWake[] = [];
    for (const [threadId, record] of this.#threads) {
      const at = record.checkpoints.at(-1)?.wakeAt;
      if (at !== undefined) wakes.push({ threadId, at });
    }
    return wakes.sort((a, b) => a.at - b.at);
  }

  async listWaiting(event: string): Promise<string[]> {
    const ids: string[] = [];
    for (const [threadId, record] of this.#threads)
      if (record.checkpoints.at(-1)?.waitsFor === event) ids.push(threadId);
    return ids;
  }

  async delete(threadId: string): Promise<boolean> {
    this.#leases.delete(threadId);
    const record = this.#threads.get(threadId);
    if (!record) return false;
    this.#threads.delete(threadId);
    this.#inboxes.delete(threadId);
    // An attachment goes with the last thread that refers to it.
    for (const digest of record.uses.keys())
      if (![...this.#threads.values()].some((other) => other.uses.has(digest)))
        this.#attachments.delete(digest);
    return true;
  }

  async readAttachment(threadId: string, digest: string): Promise<Uint8Array | undefined> {
    if (!this.#threads.get(threadId)?.uses.has(digest)) return undefined;
    return this.#attachments.get(digest)?.bytes.slice();
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
    record.checkpoints.splice(0, drop);
    return drop;
  }
}
