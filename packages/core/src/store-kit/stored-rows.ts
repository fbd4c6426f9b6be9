import { type ConversationLogEntry, SNAPSHOT_VERSION } from '@skein/conversation';
import type { CheckpointInfo, LLMMessage, ThreadInfo, ThreadStatus } from '@skein/spec';
import type { StoredState } from '../checkpoint/checkpoint-store.js';
import type { StoredThread, ThreadState } from '../thread/thread-state.js';
import { type StoreIdentity, storeCorrupt } from './store-errors.js';

// The rows a store's queries return, named as the columns of the tables every Skein store keeps
// (threads, checkpoints, messages, log_entries), and what they decode to.

/** A checkpoint as `list` reads it. */
export interface CheckpointRow {
  readonly checkpoint_id: string;
  readonly sequence: number;
  readonly created_at: string;
  readonly status: string;
  readonly step: number;
  readonly current_node_id: string | null;
  /** Messages of the conversation at this checkpoint. */
  readonly message_count: number;
  /** Log entries of the conversation at this checkpoint. */
  readonly log_count: number;
}

/** A checkpoint as `load` reads it: with its thread state as JSON text. */
export interface StoredCheckpointRow extends CheckpointRow {
  readonly state: string;
}

/** A thread as `listThreads` reads it. */
export interface ThreadListRow {
  readonly thread_id: string;
  readonly workflow_id: string;
  readonly workflow_version: string;
  readonly status: string;
  readonly step: number;
  readonly checkpoint_count: number;
  readonly last_checkpoint_id: string;
  readonly updated_at: string;
}

export function checkpointInfo(threadId: string, row: CheckpointRow): CheckpointInfo {
  return {
    id: row.checkpoint_id,
    threadId,
    sequence: row.sequence,
    createdAt: row.created_at,
    status: row.status as ThreadStatus,
    step: row.step,
    ...(row.current_node_id === null ? {} : { currentNodeId: row.current_node_id }),
    messageCount: row.message_count,
  };
}

export function threadInfo(row: ThreadListRow): ThreadInfo {
  return {
    threadId: row.thread_id,
    workflowId: row.workflow_id,
    workflowVersion: row.workflow_version,
    status: row.status as ThreadStatus,
    step: row.step,
    checkpoints: row.checkpoint_count,
    lastCheckpointId: row.last_checkpoint_id,
    updatedAt: row.updated_at,
  };
}

/** Parses a stored JSON column; text that no longer parses means the data was damaged. */
function parseStored(json: string, store: StoreIdentity, where: string): unknown {
  try {
    return JSON.parse(json);
  } catch (error) {
    throw storeCorrupt(store, `${where} does not hold valid JSON`, {
      cause: error,
      details: { where },
    });
  }
}

/** A checkpoint and its state, as `listStates` returns it; a state that does not parse is `STORE_CORRUPT`. */
export function decodeStoredState(
  threadId: string,
  row: StoredCheckpointRow,
  store: StoreIdentity,
): StoredState {
  return {
    checkpoint: checkpointInfo(threadId, row),
    state: parseStored(row.state, store, `state of checkpoint ${row.checkpoint_id}`) as ThreadState,
  };
}

/**
 * The thread `load` returns: the checkpoint `row` with the JSON `bodies` of the messages and log
 * entries it covers, in order. Text that no longer parses, or fewer bodies than the checkpoint
 * counts, is `STORE_CORRUPT` naming `store`.
 */
export function decodeStoredThread(
  threadId: string,
  row: StoredCheckpointRow,
  bodies: { readonly messages: readonly string[]; readonly log: readonly string[] },
  store: StoreIdentity,
): StoredThread {
  const where = `thread ${threadId}`;
  const messages = bodies.messages.map(
    (body, i) => parseStored(body, store, `message ${i} of ${where}`) as LLMMessage,
  );
  const log = bodies.log.map(
    (body, i) => parseStored(body, store, `log entry ${i} of ${where}`) as ConversationLogEntry,
  );
  if (messages.length !== row.message_count || log.length !== row.log_count)
    throw storeCorrupt(
      store,
      `checkpoint ${row.checkpoint_id} of ${where} covers ${row.message_count} messages and ${row.log_count} log entries but ${messages.length} and ${log.length} rows are stored`,
    );
  return {
    ...decodeStoredState(threadId, row, store),
    conversation: { version: SNAPSHOT_VERSION, messages, log },
  };
}
