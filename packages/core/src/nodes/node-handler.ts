import type { LLMClient } from '@skein/spec';
import type { SkeinEmitter } from '../events/emitter.js';
import type { GuardrailRegistry } from '../guardrails/guardrail-registry.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { PendingInteraction } from '../thread/thread-state.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolRunner } from '../tools/tool-runner.js';
import type { WorkflowCaller } from '../tools/workflow-call.js';
import type { NodeDefinition } from '../workflow/types.js';
import type { AttachmentReader } from './attachment-bytes.js';

/** What the engine gives a node handler. */
export interface NodeServices {
  readonly emitter: SkeinEmitter;
  readonly tools: ToolRegistry;
  readonly toolRunner: ToolRunner;
  /** The model for an LLM node (by its config). */
  readonly llmFor: (node: NodeDefinition) => LLMClient;
  /**
   * How tools called by a node run workflows (each call a child thread); absent without a thread
   * builder, and then a workflow tool's call fails.
   */
  readonly workflowCaller?: (ctx: NodeRunContext) => WorkflowCaller;
  /** The engine's clock in epoch ms: what waits (SLEEP, timeouts) are measured from. */
  readonly now: () => number;
  /**
   * Reads the bytes of an attachment a stored message refers to (the store's `readAttachment`),
   * for a model call; absent without a store that keeps attachments.
   */
  readonly readAttachment?: AttachmentReader;
  /** The engine's guardrails, for the names a workflow, node or tool gives. */
  readonly guardrails?: GuardrailRegistry;
}

export interface NodeRunContext<N extends NodeDefinition = NodeDefinition> {
  readonly thread: ThreadContext;
  readonly node: N;
  /**
   * The run's signal: pass it on to models, tools and child threads as it is. Absent when nothing
   * can cancel the run (every receiver takes an optional signal, so none is made for it).
   */
  readonly signal: AbortSignal | undefined;
  readonly services: NodeServices;
  /**
   * Present when the thread is resumed at this node: the input given to `resume` (a wait's
   * event payload or wake time), or `timedOut` when the engine timed the wait out.
   */
  readonly resume?: ResumeInput;
  /**
   * True when this node runs again rather than for the first time (the run went on from a stored,
   * failed, cancelled or paused thread): children it started before may already exist.
   */
  readonly recovering?: boolean;
  /** The `maxSteps` of the current `execute` or `resume` call (child threads get the same). */
  readonly maxSteps?: number;
  /**
   * Failed tool calls to add to the thread's counts (by tool name) when the node completes or
   * pauses; a node that fails adds none. For failures found deep inside a node (a tool round, a
   * child thread), where returning them in the outcome would thread them through every caller.
   */
  countToolFailures(added: Readonly<Record<string, number>>): void;
  /**
   * Input guardrails that passed the user messages before a storage position (by guardrail
   * name), kept in the thread's state when the node completes or pauses: a resumed or later run
   * does not check them again.
   */
  markGuarded?(marks: Readonly<Record<string, number>>): void;
  /**
   * Messages sent to the thread while it runs (decision 0036); present on a top-level thread of
   * an engine whose store keeps an inbox. A node that calls a model asks it first.
   */
  readonly inbox?: ThreadInbox;
}

/** Where a running thread meets messages sent to it meanwhile (`send` with `ifBusy`). */
export interface ThreadInbox {
  /**
   * Call before a model call: `steer` messages join the conversation now; true when an
   * `interrupt` waits, and the node should end here, with what it finished kept.
   */
  beforeModelCall(): Promise<boolean>;
}

/** What a paused or waiting node is resumed with. */
export interface ResumeInput {
  readonly input: unknown;
  /** The wait's deadline passed (`input` is null). */
  readonly timedOut?: boolean;
}

/**
 * What a node did: go on (with an output), wait for input, or end the thread — and what it
 * changes in the thread's state. Handlers change state only through this (and
 * `countToolFailures`); the conversation has its own log, which they append to directly.
 */
export type NodeOutcome =
  | {
      readonly kind: 'next';
      readonly output?: unknown;
      /** How the node ended, reported on `node:completed` (e.g. `max-tool-rounds`). */
      readonly status?: string;
      /** Variables the node sets (checked as JSON and frozen by the engine). */
      readonly variables?: Readonly<Record<string, unknown>>;
      /** Go to this node instead of following the edges (a wait's `onTimeout`). */
      readonly goto?: string;
    }
  | { readonly kind: 'pause'; readonly pending: PendingInteraction }
  | {
      readonly kind: 'end';
      readonly output?: unknown;
      readonly status?: undefined;
      readonly variables?: Readonly<Record<string, unknown>>;
    };

export type NodeHandler<N extends NodeDefinition = NodeDefinition> = (
  context: NodeRunContext<N>,
) => NodeOutcome | Promise<NodeOutcome>;
