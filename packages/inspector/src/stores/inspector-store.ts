import type { ConversationSnapshot } from '@skein/conversation';
import type { CheckpointInfo, StoredThread, ThreadInfo } from '@skein/spec';
import type { InspectedState } from '../model/thread-summary.js';

/**
 * What the inspector reads of a store: the reading half of `CheckpointStore`. Any store of
 * @skein/core (SQLite, Postgres, in memory) is one.
 */
export interface InspectorStore {
  listThreads(): Promise<ThreadInfo[]>;
  list(threadId: string): Promise<CheckpointInfo[]>;
  load(
    threadId: string,
    checkpointId?: string,
  ): Promise<StoredThread<InspectedState, ConversationSnapshot> | undefined>;
  /**
   * The bytes of an attachment (a media part by `ref`) of thread `threadId`: what the part route
   * serves. Optional, as in `CheckpointStore`: without it, or when it answers undefined, the
   * attachment is "not available".
   */
  readAttachment?(threadId: string, digest: string): Promise<Uint8Array | undefined>;
}

/** Opens a store from what the command line names. One per kind of store. */
export interface StoreOpener {
  /** Shown in `--help` and errors: what `location` looks like. */
  readonly describes: string;
  matches(location: string): boolean;
  open(location: string): Promise<OpenedStore>;
}

export interface OpenedStore {
  readonly store: InspectorStore;
  close(): Promise<void>;
}
