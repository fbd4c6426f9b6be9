import type {
  ConversationCursor,
  ConversationDelta,
  ConversationManager,
} from '@skein/conversation';
import { type ForkOrigin, InvalidArgumentError, type TokenUsage } from '@skein/spec';
import type { ExpressionScope } from '../expressions/evaluate.js';
import type { Tool } from '../tools/tool.js';
import { checkTool } from '../tools/tool-registry.js';
import { deepFreeze, frozenCopy } from '../util/freeze.js';
import { withEntry } from '../util/with-entry.js';
import type { CompiledWorkflow } from '../workflow/compiled-workflow.js';
import { applyTransition } from './apply-transition.js';
import type { ConversationSeed } from './conversation-seed.js';
import { isJsonPrimitive, requireJsonValue } from './json-state-value.js';
import { RunRecord } from './run-record.js';
import type { ThreadState, ThreadStatus } from './thread-state.js';
import type { ThreadTransition } from './thread-transition.js';
import { withToolFailures } from './tool-failure-counts.js';

type AnyTool = Tool;

// What a new thread starts with, shared: a fan-out builds thousands of threads at once.
const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_TOOLS: readonly AnyTool[] = Object.freeze([]);

/** Counts that are frozen and null-prototype already are kept; anything else is copied so. */
function ownFailureCounts(counts: ThreadState['toolFailures']): ThreadState['toolFailures'] {
  if (Object.isFrozen(counts) && Object.getPrototypeOf(counts) === null) return counts;
  return withToolFailures(counts, () => {});
}

function frozenNames(names: readonly string[]): readonly string[] {
  return names.length === 0 ? NO_NAMES : Object.freeze([...names]);
}

/**
 * A stored state as a thread holds it: everything a caller can reach through the getters frozen,
 * so nobody changes the state behind the executor's back, and tool failure counts null-prototype
 * (their keys are model-chosen names). A new thread's state is made so by the builder already.
 */
export function restoredState(state: ThreadState): ThreadState {
  return Object.freeze({
    ...state,
    variables: deepFreeze(state.variables),
    nodeOutputs: deepFreeze(state.nodeOutputs),
    input: deepFreeze(state.input),
    output: deepFreeze(state.output),
    lastOutput: deepFreeze(state.lastOutput),
    error: deepFreeze(state.error),
    pending: deepFreeze(state.pending),
    dynamicTools: frozenNames(state.dynamicTools),
    toolFailures: ownFailureCounts(state.toolFailures),
    firedTriggers: frozenNames(state.firedTriggers),
    ...(state.guarded ? { guarded: deepFreeze(state.guarded) } : {}),
  });
}

function checkVariableName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '')
    throw new InvalidArgumentError(
      'name',
      `a variable name must be a non-empty string, got ${String(name)}`,
    );
}

/**
 * A new child thread's conversation before its first use: its seed, and how to build it.
 * @internal
 */
export interface UnbuiltConversation {
  readonly seed: ConversationSeed;
  readonly build: () => ConversationManager;
}

/** The tools a thread can use: the workflow's initial tools and those added during the run. */
export interface AvailableTools {
  readonly initial: readonly AnyTool[];
  readonly dynamic: readonly AnyTool[];
}

/**
 * One run of a workflow: its state (immutable, changed only by `applyTransition`), its own
 * conversation and its tools. Built by `ThreadBuilder`, driven by `ThreadExecutor`.
 */
export class ThreadContext {
  readonly threadId: string;
  readonly workflow: CompiledWorkflow;
  #conversation: ConversationManager | undefined;
  /** Until the conversation is first used: what it holds, and how to build it. */
  readonly #unbuilt: UnbuiltConversation | undefined;
  #state: ThreadState;
  #initial: readonly AnyTool[];
  #dynamic: readonly AnyTool[];
  #scope: ExpressionScope | undefined;
  #scopeOf: ThreadState | undefined;
  /** The run loop's bookkeeping of this thread. @internal */
  readonly record: RunRecord;

  constructor(parts: {
    workflow: CompiledWorkflow;
    /**
     * The conversation, or its seed and how to build it the first time it is used (a new child
     * thread's: see `ConversationSeed`).
     */
    conversation: ConversationManager | UnbuiltConversation;
    state: ThreadState;
    initialTools: readonly AnyTool[];
    dynamicTools?: readonly AnyTool[];
    checkpointCursor?: ConversationCursor;
    lastCheckpointId?: string;
    checkpointSequence?: number;
    /** A fork's origin, for its first checkpoint (see `RunRecord.forkOf`). */
    forkOf?: ForkOrigin;
  }) {
    this.threadId = parts.state.threadId;
    this.workflow = parts.workflow;
    const conversation = parts.conversation;
    const unbuilt = 'build' in conversation;
    this.#conversation = unbuilt ? undefined : conversation;
    this.#unbuilt = unbuilt ? conversation : undefined;
    this.#state = parts.state;
    this.#initial =
      parts.initialTools.length === 0 ? NO_TOOLS : Object.freeze([...parts.initialTools]);
    const dynamic = parts.dynamicTools;
    this.#dynamic = !dynamic || dynamic.length === 0 ? NO_TOOLS : Object.freeze([...dynamic]);
    this.record = new RunRecord(
      parts.checkpointCursor ?? { messages: 0, log: 0 },
      parts.lastCheckpointId,
      parts.checkpointSequence ?? 0,
    );
    this.record.forkOf = parts.forkOf;
    this.record.inboxMarked = this.state.inboxTaken;
  }

  /** The thread's conversation, built from its seed the first time it is asked for. */
  get conversation(): ConversationManager {
    let conversation = this.#conversation;
    if (conversation === undefined) {
      conversation = this.#unbuilt!.build();
      this.#conversation = conversation;
    }
    return conversation;
  }

  /** `conversation.cursor()`, without building a conversation nothing has used yet. */
  conversationCursor(): ConversationCursor {
    return this.#conversation === undefined
      ? this.#unbuilt!.seed.cursor
      : this.#conversation.cursor();
  }

  /** `conversation.deltaSince(from)`, without building a conversation nothing has used yet. */
  conversationDeltaSince(from: ConversationCursor): ConversationDelta {
    if (this.#conversation === undefined && from.messages === 0 && from.log === 0)
      return this.#unbuilt!.seed.delta;
    return this.conversation.deltaSince(from);
  }

  /** `conversation.getTotalUsage()`, without building a conversation nothing has used yet. */
  totalUsage(): TokenUsage {
    return this.#conversation === undefined
      ? this.#unbuilt!.seed.usage
      : this.#conversation.getTotalUsage();
  }

  /** The last checkpoint stored of this thread (a new one's id once the run loop saved it). */
  get lastCheckpointId(): string | undefined {
    return this.record.lastCheckpointId;
  }

  /** True while an executor runs this thread. */
  get running(): boolean {
    return this.record.running;
  }

  /**
   * Applies one state transition (see `applyTransition`): the one way thread state changes.
   * @internal The run loop and triggers call it; handlers say what changes in their outcome.
   */
  dispatch(transition: ThreadTransition): ThreadState {
    this.#state = applyTransition(this.#state, transition);
    return this.#state;
  }

  get state(): ThreadState {
    return this.#state;
  }

  get status(): ThreadStatus {
    return this.#state.status;
  }

  get variables(): Readonly<Record<string, unknown>> {
    return this.#state.variables;
  }

  /**
   * Sets a variable to a frozen copy of `value`. Throws a `VALUE_NOT_JSON` `ThreadError` (state
   * untouched) for what JSON cannot carry: a BigInt, NaN, ±Infinity, a function, a class
   * instance, a cycle.
   */
  setVariable(name: string, value: unknown): void {
    checkVariableName(name);
    if (!isJsonPrimitive(value)) requireJsonValue(value, `variable "${name}"`, `vars.${name}`);
    this.dispatch({
      type: 'variables-set',
      variables: Object.freeze(withEntry(this.#state.variables, name, frozenCopy(value))),
    });
  }

  /** Sets several variables in one change, all or none (see `setVariable`). */
  setVariables(values: Readonly<Record<string, unknown>>): void {
    if (typeof values !== 'object' || values === null || Array.isArray(values))
      throw new InvalidArgumentError(
        'values',
        'variables must be given as an object of name: value',
      );
    let variables: Readonly<Record<string, unknown>> = this.#state.variables;
    for (const name of Object.keys(values)) {
      const value = values[name];
      if (!isJsonPrimitive(value)) requireJsonValue(value, `variable "${name}"`, `vars.${name}`);
      variables = withEntry(variables, name, frozenCopy(value));
    }
    this.dispatch({ type: 'variables-set', variables: Object.freeze(variables) });
  }

  get availableTools(): AvailableTools {
    return { initial: this.#initial, dynamic: this.#dynamic };
  }

  /** The initial tool specs, as the conversation's tool description reads them. */
  readonly initialToolSpecs = (): readonly AnyTool[] => this.#initial;

  /**
   * Adds tools for the rest of this run. They are offered to LLM nodes but get no guaranteed
   * description (they are ordinary conversation, if announced at all). A tool with the name of
   * one already available replaces it.
   */
  // `Tool<never>`: a tool typed with an interface for its arguments is accepted too.
  addDynamicTools(tools: readonly Tool<never>[]): void {
    // Checked like registered tools, before anything changes: a bad one would fail every call.
    for (const tool of tools) checkTool(tool);
    const names = new Set(tools.map((t) => t.name));
    this.#dynamic = Object.freeze([...this.#dynamic.filter((t) => !names.has(t.name)), ...tools]);
    this.dispatch({ type: 'dynamic-tools-changed', names: this.#dynamic.map((t) => t.name) });
  }

  removeDynamicTool(name: string): boolean {
    const before = this.#dynamic.length;
    this.#dynamic = Object.freeze(this.#dynamic.filter((t) => t.name !== name));
    if (this.#dynamic.length === before) return false;
    this.dispatch({ type: 'dynamic-tools-changed', names: this.#dynamic.map((t) => t.name) });
    return true;
  }

  /** What expressions and templates can read. */
  scope(): ExpressionScope {
    const s = this.#state;
    // A node reads the scope several times between state changes (assignments, templates,
    // edge conditions): build it once per state. Expressions only read it.
    if (this.#scopeOf === s) return this.#scope!;
    this.#scopeOf = s;
    this.#scope = {
      vars: s.variables,
      input: s.input,
      nodes: s.nodeOutputs,
      output: s.lastOutput,
      thread: { id: s.threadId, step: s.step, status: s.status },
    };
    return this.#scope;
  }

  /** What edge conditions read after a node: the scope with its output and variables in place. */
  scopeAfter(
    nodeId: string,
    output: unknown,
    variables?: Readonly<Record<string, unknown>>,
  ): ExpressionScope {
    const scope = this.scope();
    if (variables === undefined && output === undefined) return scope;
    return {
      ...scope,
      ...(variables ? { vars: variables } : {}),
      ...(output === undefined
        ? {}
        : {
            nodes: withEntry(scope.nodes as Readonly<Record<string, unknown>>, nodeId, output),
            output,
          }),
    };
  }
}
