import type { ConversationSnapshot } from '@skein/conversation';
import type {
  CheckpointState,
  StoredThread as ContractStoredThread,
  ForkOrigin,
  ThreadStatus,
} from '@skein/spec';
import type { PendingInteraction } from '../pauses/pending-interaction.js';

// The kinds of pause are the pauses/ module's; their names stay importable from here.
export type {
  BranchWait,
  PausedToolCall,
  PendingAnswer,
  PendingInteraction,
  PendingWebhook,
} from '../pauses/pending-interaction.js';
// Stores report a thread's status too, so the union is part of the contract in @skein/spec.
export type { ThreadStatus };

/** What a branch or child thread knows of the thread that started it. */
export interface ThreadParent {
  readonly threadId: string;
  readonly nodeId: string;
  /** The top-level thread. */
  readonly rootThreadId: string;
  /** From the top-level thread, e.g. `compare/cities[2]`. */
  readonly branchPath: string;
  /** 1 for a child of a top-level thread. */
  readonly depth: number;
  /** A branch ends when it reaches this node (its JOIN) instead of running it. */
  readonly stopAt?: string;
  /** Stored messages it started with (a forked conversation): what follows is its own. */
  readonly forkedAt: number;
}

export interface SerializedError {
  readonly code: string;
  readonly message: string;
  readonly nodeId?: string;
  /** `GUARDRAIL_TRIPPED`: which guardrail, at which stage, why (`endsChat`: a chat is over). */
  readonly guardrail?: TrippedGuardrail;
}

/** What a stored trip says (see `GuardrailError`). */
export interface TrippedGuardrail {
  readonly name: string;
  readonly stage: string;
  readonly reason: string;
  readonly endsChat?: boolean;
  readonly toolCallId?: string;
  readonly toolName?: string;
}

/**
 * Everything about a thread except its conversation, as immutable plain JSON. Every change goes
 * through `applyTransition`, which returns a new frozen object, so a checkpoint can hold the
 * object itself: nobody can change it afterwards.
 */
export interface ThreadState extends CheckpointState {
  /** Nodes run so far. */
  readonly step: number;
  /** The node that runs next; undefined once the thread has ended. */
  readonly currentNodeId?: string;
  readonly input?: unknown;
  readonly variables: Readonly<Record<string, unknown>>;
  /** The last output of each node that produced one. */
  readonly nodeOutputs: Readonly<Record<string, unknown>>;
  readonly lastOutput?: unknown;
  readonly output?: unknown;
  readonly error?: SerializedError;
  readonly pending?: PendingInteraction;
  /** Names of dynamic tools added during the run (restored from the engine's registry). */
  readonly dynamicTools: readonly string[];
  /** Failed tool calls by tool name, in a null-prototype object (names come from the model). */
  readonly toolFailures: Readonly<Record<string, number>>;
  /** Ids of `once` triggers that have fired. */
  readonly firedTriggers: readonly string[];
  /**
   * Input guardrails by name: the storage position of the conversation before which they have
   * passed every user message (a resumed or later run checks only what came after).
   */
  readonly guarded?: Readonly<Record<string, number>>;
  readonly createdAt: string;
  /** Set on branches and child threads. */
  readonly parent?: ThreadParent;
  /** Set on a thread made by `engine.fork`: the thread and checkpoint it was forked from. */
  readonly forkedFrom?: ForkOrigin;
  /**
   * Whose thread it is: the caller it was built for (`BuildThreadOptions.principal`, or a
   * principal's view `engine.forPrincipal(p)`), e.g. a user id or a token's subject. Set when
   * the thread is built and never changed; forks and child threads carry their origin's. A
   * principal's view treats a thread of another principal, or of none, as unknown. Not the
   * lease `owner` of a checkpoint, which names the process that runs the thread.
   */
  readonly principal?: string;
  /**
   * The highest inbox `seq` this thread's conversation holds (decision 0036): messages posted to
   * it up to there are in the conversation, each once. Saved with the checkpoint whose
   * conversation first shows them, so the store marks them taken in the same commit.
   */
  readonly inboxTaken?: number;
}

/** Where a forked thread came from (the same link a fork's first checkpoint carries). */
export type { ForkOrigin };

/** A thread as loaded from a store: the state of one checkpoint and the whole conversation up to it. */
export type StoredThread = ContractStoredThread<ThreadState, ConversationSnapshot>;
