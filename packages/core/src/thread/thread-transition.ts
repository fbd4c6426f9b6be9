import type {
  ForkOrigin,
  PendingInteraction,
  PendingWebhook,
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
   * A node completed: the step count moves on, `next` is where the thread goes, a node that
   * produced an output (a frozen JSON value) records it, and the variables it set (frozen) replace
   * the thread's.
   */
  | {
      readonly type: 'node-completed';
      readonly nodeId: string;
      readonly step: number;
      readonly next: string | undefined;
      readonly output: unknown;
      readonly end: boolean;
      readonly variables?: Readonly<Record<string, unknown>>;
      readonly toolFailures?: Readonly<Record<string, number>>;
      /** Input guardrails' marks the node moved (merged into `guarded`). */
      readonly guarded?: Readonly<Record<string, number>>;
    }
  /** A trigger sent the thread elsewhere after a node. */
  | { readonly type: 'jumped'; readonly next: string }
  | {
      readonly type: 'paused';
      readonly pending: PendingInteraction;
      readonly toolFailures?: Readonly<Record<string, number>>;
      readonly guarded?: Readonly<Record<string, number>>;
    }
  /**
   * A resume claimed the pause: RUNNING, the pause kept with its answer (a frozen JSON value).
   * The engine claims a wait the same way when it wakes it (a sleep's time, an event), or times
   * it out (`timedOut`, input null).
   */
  | { readonly type: 'resume-claimed'; readonly input: unknown; readonly timedOut?: boolean }
  /**
   * The node refused the answer a resume claimed (`RESUME_INPUT_INVALID`): the pause is given
   * back, unclaimed, PAUSED (or WAITING) as it was before the claim.
   */
  | { readonly type: 'answer-refused' }
  /** A webhook was made for the thread's WAIT_FOR_EVENT (replacing any earlier one). */
  | { readonly type: 'webhook-created'; readonly webhook: PendingWebhook }
  /** A fork's first state: linked to where it came from (the new id is the builder's). */
  | { readonly type: 'forked'; readonly from: ForkOrigin }
  /**
   * The thread moves to another version of its workflow (`engine.upgrade`): the node ids, pause
   * and variables as the migration made them, checked against the new version by the caller.
   */
  | {
      readonly type: 'upgraded';
      readonly workflowVersion: string;
      readonly currentNodeId: string | undefined;
      readonly pending: PendingInteraction | undefined;
      readonly variables: Readonly<Record<string, unknown>>;
      readonly nodeOutputs: Readonly<Record<string, unknown>>;
    }
  /**
   * The run ended: COMPLETED, FAILED or CANCELLED — or PAUSED again (a refused save, a bad resume
   * input) — with its error, and its output when one is given (a branch's, as it reaches its JOIN).
   */
  | {
      readonly type: 'finished';
      readonly status: Exclude<ThreadStatus, 'PENDING' | 'RUNNING'>;
      readonly error: SerializedError | undefined;
      readonly output?: unknown;
      /** A trip at the input: the tripping guardrail's mark moves past what it judged. */
      readonly guarded?: Readonly<Record<string, number>>;
    }
  /**
   * A thread that ended (or never ran) takes a new turn, a chat's next message: PENDING again at
   * `at` (its workflow's START), with the last turn's output, error and pause cleared.
   */
  | { readonly type: 'reopened'; readonly at: string }
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
  /** Messages posted to the thread up to `seq` joined its conversation (decision 0036). */
  | { readonly type: 'inbox-taken'; readonly seq: number };
