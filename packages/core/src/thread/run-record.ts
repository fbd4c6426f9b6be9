import type { ConversationCursor } from '@skein/conversation';
import type { ForkOrigin } from '@skein/spec';
import type { ThreadContext } from './thread-context.js';
import type { ThreadState } from './thread-state.js';

/**
 * What the run loop keeps of a thread between its steps and its calls: where the last checkpoint
 * left it, what a failed save goes back to, who drives it, and the child threads of a node that
 * waits. Not the thread's public face: users and handlers see `ThreadContext`.
 * @internal
 */
export class RunRecord {
  /** Where the last checkpoint left the conversation: the next one stores only what follows. */
  checkpointCursor: ConversationCursor;
  lastCheckpointId: string | undefined;
  /** 1, 2, 3… per thread: the last stored checkpoint's. */
  checkpointSequence: number;
  /**
   * What a failed save goes back to: the state and conversation of the last stored checkpoint,
   * or of the thread as it was when first run.
   */
  lastSaved: { readonly state: ThreadState; readonly cursor: ConversationCursor } | undefined;
  /** The inbox mark of the last stored checkpoint: a save sends the thread's only when it moved. */
  inboxMarked: number | undefined;
  /**
   * A fork not stored yet: its first checkpoint names the checkpoint its conversation continues,
   * so the store shares that prefix instead of taking a copy (`checkpointCursor` starts there).
   */
  forkOf: ForkOrigin | undefined;
  /**
   * Loaded RUNNING by `recover`, to go on where a dead process left it: once its lease is held,
   * its checkpoint must still be the latest (see `checkStillLatest`).
   */
  takeOver = false;
  /** True while an executor runs the thread, so two cannot drive it at once. */
  running = false;
  /** The lease owner driving it, written on its checkpoints (the store's fence). */
  owner: string | undefined;
  /**
   * Branches and child threads of a node that paused: a resume in this process finds them. Made
   * the first time one is held (most threads never hold any; a fan-out makes thousands).
   */
  held: Map<string, ThreadContext> | undefined;

  constructor(cursor: ConversationCursor, id: string | undefined, sequence: number) {
    this.checkpointCursor = cursor;
    this.lastCheckpointId = id;
    this.checkpointSequence = sequence;
  }

  /** Records a checkpoint the store accepted: the next one continues from it. */
  saved(id: string, sequence: number, cursor: ConversationCursor, state: ThreadState): void {
    this.checkpointCursor = cursor;
    this.checkpointSequence = sequence;
    this.lastCheckpointId = id;
    this.lastSaved = { state, cursor };
    this.inboxMarked = state.inboxTaken;
    this.forkOf = undefined;
  }
}
