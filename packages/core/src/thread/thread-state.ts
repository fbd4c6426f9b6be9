import type { ConversationSnapshot } from '@skein/conversation';
import type {
  CheckpointState,
  StoredThread as ContractStoredThread,
  ForkOrigin,
  JsonSchema,
  LLMMessage,
  ThreadStatus,
  ToolCall,
} from '@skein/spec';

// Stores report a thread's status too, so the union is part of the contract in @skein/spec.
export type { ThreadStatus };

/**
 * The input a resume claimed a pause with. It is stored with the pause, in the checkpoint that
 * claims it, before anything runs: a crash after the claim continues with the same input, and a
 * second resume of the same pause finds it taken (`RESUME_CONFLICT`).
 */
export interface PendingAnswer {
  readonly input: unknown;
  /** The wait's deadline passed: the engine claimed it with no input (`input` is null). */
  readonly timedOut?: true;
}

/** A WAIT_FOR_EVENT's webhook: only a hash of its token is stored (see `createWebhook`). */
export interface PendingWebhook {
  /** SHA-256 of the token's secret part, hex. */
  readonly tokenHash: string;
  readonly createdAt: string;
}

/** Why a thread waits, and for what; `answer` once a resume has claimed it. */
/**
 * The tool round an LLM node paused in because a call asked for a person's answer: the call runs
 * again with it, and the calls that had finished keep their results (tool messages, added to the
 * conversation with the rest of the round once every call has one).
 */
export interface PausedToolCall {
  /** The LLM node's tool round the calls belong to. */
  readonly round: number;
  /** Every call of the round, in order. */
  readonly calls: readonly ToolCall[];
  /** The call that asked. */
  readonly callId: string;
  /** Results of the round's finished calls, by call id. */
  readonly results: Readonly<Record<string, LLMMessage>>;
  /** What the tool stored with its request, given back with the answer. */
  readonly state?: unknown;
}

export type PendingInteraction =
  | {
      readonly kind: 'user-input';
      readonly answer?: PendingAnswer;
      readonly nodeId: string;
      readonly prompt?: string;
      /** The answer's JSON Schema (the node's `input`): an answer must match it. */
      readonly input?: JsonSchema;
      /** ISO time after which the engine times the wait out (the node's `timeout`). */
      readonly deadline?: string;
      /** Set when a tool call of an LLM node asked for the answer (`pauseForInput`). */
      readonly tool?: PausedToolCall;
    }
  | {
      readonly kind: 'tool-approval';
      readonly answer?: PendingAnswer;
      readonly nodeId: string;
      /** The LLM node's tool round the calls belong to. */
      readonly round: number;
      /** Every call of the round, in order; they run after the decision. */
      readonly calls: readonly ToolCall[];
      /** Ids of the calls that need an approval. */
      readonly awaiting: readonly string[];
      /** Calls a guardrail refused (never asked about): the result text the model is shown. */
      readonly refused?: Readonly<Record<string, string>>;
    }
  | {
      /** Branches or child threads of this node wait, each for its own input. */
      readonly kind: 'branches';
      readonly answer?: PendingAnswer;
      readonly nodeId: string;
      /** One entry per waiting thread, in branch order; `resume` answers one by its `path`. */
      readonly waiting: readonly BranchWait[];
    }
  | {
      /** A SLEEP node: the thread is WAITING until `wakeAt`, which the engine wakes it at. */
      readonly kind: 'sleep';
      readonly answer?: PendingAnswer;
      readonly nodeId: string;
      /** ISO time the thread wakes at. */
      readonly wakeAt: string;
    }
  | {
      /** A WAIT_FOR_EVENT node: WAITING until `engine.signal(event, …)` or its webhook. */
      readonly kind: 'event';
      readonly answer?: PendingAnswer;
      readonly nodeId: string;
      /** The event name it waits for. */
      readonly event: string;
      /** ISO time after which the engine times the wait out (the node's `timeout`). */
      readonly deadline?: string;
      readonly webhook?: PendingWebhook;
    };

/** A branch (or child thread, at any depth) that waits: answer it with `{ branch: path, input }`. */
export interface BranchWait {
  /** Its path from the paused thread: `parallel/name`, `map[2]`, `sub`, nested ones joined by `/`. */
  readonly path: string;
  readonly threadId: string;
  /** A caller answers `user-input` and `tool-approval`; the engine wakes `sleep` and `event`. */
  readonly reason: 'user-input' | 'tool-approval' | 'sleep' | 'event';
  readonly prompt?: string;
  /** A `user-input` branch's answer schema (its node's `input`). */
  readonly input?: JsonSchema;
  /** A sleeping branch's wake time (ISO). */
  readonly wakeAt?: string;
  /** The event an `event` branch waits for. */
  readonly event?: string;
  /** When a branch's wait times out (ISO): a USER_INTERACTION's or an event wait's `timeout`. */
  readonly deadline?: string;
  /** The ids of the tool calls a `tool-approval` branch waits for (answer each, no other). */
  readonly awaiting?: readonly string[];
}

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
