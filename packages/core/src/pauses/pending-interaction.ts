import type { JsonSchema, LLMMessage, ToolCall } from '@skein/spec';

// The stored shape of every kind of pause, one member of the union per kind: what a checkpoint
// holds as `state.pending`. What each kind means to the engine is in its own file beside this.

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

/** Why a thread waits, and for what; `answer` once a resume has claimed it. */
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

/** The name of a kind of pause. */
export type PauseKindName = PendingInteraction['kind'];

/** The stored shape of the pause of kind `K`. */
export type PauseOf<K extends PauseKindName> = Extract<PendingInteraction, { readonly kind: K }>;

/** A kind of pause a branch can wait with: every kind but `branches` (nested ones are flattened). */
export type BranchWaitReason = BranchWait['reason'];
