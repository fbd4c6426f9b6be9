import type { ConversationLogEntry } from '@skein/conversation';
import { CheckpointConflictError, InvalidArgumentError, type LLMMessage } from '@skein/spec';
import type { ThreadState } from '../thread/thread-state.js';
import type {
  Checkpoint,
  CheckpointInfo,
  CheckpointStore,
  StoredThread,
  ThreadInfo,
} from './checkpoint-store.js';

interface SavedCheckpoint {
  readonly id: string;
  readonly sequence: number;
  readonly createdAt: string;
  readonly state: ThreadState;
  readonly messageCount: number;
  readonly logCount: number;
}

function infoOf(threadId: string, saved: SavedCheckpoint): CheckpointInfo {
  const { state } = saved;
  return {
    id: saved.id,
    threadId,
    sequence: saved.sequence,
    createdAt: saved.createdAt,
    status: state.status,
    step: state.step,
    ...(state.currentNodeId === undefined ? {} : { currentNodeId: state.currentNodeId }),
    messageCount: saved.messageCount,
  };
}

interface ThreadRecord {
  readonly messages: LLMMessage[];
  readonly log: ConversationLogEntry[];
  readonly checkpoints: SavedCheckpoint[];
}

const SAVED: Promise<void> = Promise.resolve();

/** How far a stored thread's conversation goes (made only for a conflict's error). */
function extentOf(record: ThreadRecord): { messages: number; log: number } {
  return { messages: record.messages.length, log: record.log.length };
}

/**
 * Checkpoints in memory. Thread states are immutable (immer), so they are kept by reference;
 * messages are kept once per thread and each checkpoint records how far the conversation went.
 */
export class InMemoryCheckpointStore implements CheckpointStore {
  readonly #threads = new Map<string, ThreadRecord>();

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
    const record = this.#threads.get(checkpoint.threadId);
    if (!record) {
      this.#first(checkpoint);
      return;
    }
    const { from } = checkpoint.conversation;
    if (from.messages !== record.messages.length || from.log !== record.log.length)
      throw new CheckpointConflictError(checkpoint.threadId, extentOf(record), from);
    const latest = record.checkpoints[record.checkpoints.length - 1]?.id;
    if ((checkpoint.parentId ?? undefined) !== latest)
      throw new CheckpointConflictError(checkpoint.threadId, extentOf(record), from, {
        expected: latest,
        got: checkpoint.parentId,
      });
    for (const message of checkpoint.conversation.messages) record.messages.push(message);
    for (const entry of checkpoint.conversation.log) record.log.push(entry);
    record.checkpoints.push({
      id: checkpoint.id,
      sequence: checkpoint.sequence,
      createdAt: checkpoint.createdAt,
      state: checkpoint.state,
      messageCount: record.messages.length,
      logCount: record.log.length,
    });
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
    const record: ThreadRecord = {
      messages: messages.slice(),
      log: log.slice(),
      checkpoints: [
        {
          id: checkpoint.id,
          sequence: checkpoint.sequence,
          createdAt: checkpoint.createdAt,
          state: checkpoint.state,
          messageCount: messages.length,
          logCount: log.length,
        },
      ],
    };
    this.#threads.set(checkpoint.threadId, record);
  }

  async load(threadId: string, checkpointId?: string): Promise<StoredThread | undefined> {
    const record = this.#threads.get(threadId);
    if (!record) return undefined;
    const saved =
      checkpointId === undefined
        ? record.checkpoints[record.checkpoints.length - 1]
        : record.checkpoints.find((c) => c.id === checkpointId);
    if (!saved) return undefined;
    return {
      checkpoint: infoOf(threadId, saved),
      state: saved.state,
      conversation: {
        version: 1,
        messages: record.messages.slice(0, saved.messageCount),
        log: record.log.slice(0, saved.logCount),
      },
    };
  }

  async list(threadId: string): Promise<CheckpointInfo[]> {
    return (this.#threads.get(threadId)?.checkpoints ?? []).map((c) => infoOf(threadId, c));
  }

  async listThreads(): Promise<ThreadInfo[]> {
    const threads: ThreadInfo[] = [];
    for (const [threadId, record] of this.#threads) {
      const last = record.checkpoints[record.checkpoints.length - 1];
      if (!last) continue;
      threads.push({
        threadId,
        workflowId: last.state.workflowId,
        workflowVersion: last.state.workflowVersion,
        status: last.state.status,
        step: last.state.step,
        checkpoints: record.checkpoints.length,
        lastCheckpointId: last.id,
        updatedAt: last.createdAt,
      });
    }
    return threads;
  }

  async delete(threadId: string): Promise<boolean> {
    return this.#threads.delete(threadId);
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
