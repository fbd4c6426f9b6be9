import type { ConversationDelta, ConversationSnapshot } from '@skein/conversation';
import type {
  Checkpoint as ContractCheckpoint,
  CheckpointStore as ContractCheckpointStore,
  StoredState as ContractStoredState,
} from '@skein/spec';
import type { ThreadState } from '../thread/thread-state.js';

export type { CheckpointInfo, StoredWake, ThreadInfo } from '@skein/spec';

/** A stored checkpoint with the engine's state, as `listStates` reads it. */
export type StoredState = ContractStoredState<ThreadState>;

/**
 * One saved point of a thread: the @skein/spec contract with the engine's state and an
 * incremental conversation delta (only what was added since the previous checkpoint).
 */
export type Checkpoint = ContractCheckpoint<ThreadState, ConversationDelta>;

export type { StoredThread } from '../thread/thread-state.js';

/**
 * Where the engine's checkpoints live (the @skein/spec contract, typed with the engine's state).
 * Implementations must keep every message once and reject a checkpoint whose conversation delta
 * does not continue the thread's stored conversation (`CheckpointConflictError`).
 */
export type CheckpointStore = ContractCheckpointStore<
  ThreadState,
  ConversationDelta,
  ConversationSnapshot
>;
