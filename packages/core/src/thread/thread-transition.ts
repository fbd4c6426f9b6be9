import type { Draft } from 'immer';
import type {
  PendingInteraction,
  SerializedError,
  ThreadState,
  ThreadStatus,
} from './thread-state.js';

/**
 * Every change thread state can go through. `applyTransition` is the only place that turns one
 * into a new state, as `conversation-state.ts` folds the conversation log.
 */
export type ThreadTransition =
  /** The executor took the thread: RUNNING, with any earlier error cleared. */
  | { readonly type: 'run-started' }
  /**
   * A node completed: the step count moves on, `next` is where the thread goes, and a node that
   * produced an output (already a frozen state value) records it. The per-step hot path.
   */
  | {
      readonly type: 'node-completed';
      readonly nodeId: string;
      readonly step: number;
      readonly next: string | undefined;
      readonly output: unknown;
      readonly end: boolean;
    }
  /** A trigger sent the thread elsewhere after a node. */
  | { readonly type: 'jumped'; readonly next: string }
  | { readonly type: 'paused'; readonly pending: PendingInteraction }
  /** A resume claimed the pause: RUNNING, the pause kept with its answer (a frozen JSON value). */
  | { readonly type: 'resume-claimed'; readonly input: unknown }
  /**
   * The executor ended the run: COMPLETED, FAILED or CANCELLED, with its output (a branch's, set
   * as it reaches its JOIN, or the state's as it was). Every ending is this one change.
   */
  | {
      readonly type: 'finished';
      readonly status: 'COMPLETED' | 'FAILED' | 'CANCELLED';
      readonly error: SerializedError | undefined;
      readonly output: unknown;
    }
  /** The run ended (or stopped): COMPLETED, FAILED, CANCELLED, or PAUSED after a refused save. */
  | {
      readonly type: 'ended';
      readonly status: Exclude<ThreadStatus, 'PENDING' | 'RUNNING'>;
      readonly error: SerializedError | undefined;
    }
  /** Back to an earlier state of the same thread (a node undone, a save that failed). */
  | { readonly type: 'restored'; readonly state: ThreadState }
  /** New variables object (frozen, checked by the caller). */
  | { readonly type: 'variables-set'; readonly variables: Readonly<Record<string, unknown>> }
  | {
      readonly type: 'tool-failures-counted';
      readonly toolFailures: Readonly<Record<string, number>>;
    }
  | { readonly type: 'trigger-fired'; readonly triggerId: string }
  | { readonly type: 'dynamic-tools-changed'; readonly names: readonly string[] }
  /** Anything else: an immer recipe (`ThreadContext.update`, the public escape hatch). */
  | { readonly type: 'recipe'; readonly recipe: (draft: Draft<ThreadState>) => void }
  /** Top-level fields replaced as they are (`ThreadContext.patch`, kept for compatibility). */
  | { readonly type: 'patched'; readonly changes: Partial<ThreadState> };
