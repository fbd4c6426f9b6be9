import {
  type ConversationCursor,
  type ConversationManager,
  InvalidArgumentError,
} from '@skein/conversation';
import { type Draft, produce } from 'immer';
import type { ExpressionScope } from '../expressions/evaluate.js';
import type { Tool } from '../tools/tool.js';
import { checkTool } from '../tools/tool-registry.js';
import type { CompiledWorkflow } from '../workflow/compiled-workflow.js';
import { deepFreeze, frozenCopy } from './freeze.js';
import { isJsonPrimitive, requireJsonValue } from './json-state-value.js';
import { type ThreadState, type ThreadStatus, withChanges } from './thread-state.js';
import { withToolFailures } from './tool-failure-counts.js';

type AnyTool = Tool;

function checkVariableName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '')
    throw new InvalidArgumentError(
      'name',
      `a variable name must be a non-empty string, got ${String(name)}`,
    );
}

/** `record` with `name` set; `__proto__` becomes an own key, never the prototype. */
function withEntry(
  record: Readonly<Record<string, unknown>>,
  name: string,
  value: unknown,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...record };
  if (name === '__proto__')
    Object.defineProperty(next, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else next[name] = value;
  return next;
}

/** The tools a thread can use: the workflow's initial tools and those added during the run. */
export interface AvailableTools {
  readonly initial: readonly AnyTool[];
  readonly dynamic: readonly AnyTool[];
}

/**
 * One run of a workflow: its state (immutable, changed through immer), its own conversation and
 * its tools. Built by `ThreadBuilder`, driven by `ThreadExecutor`.
 */
export class ThreadContext {
  readonly threadId: string;
  readonly workflow: CompiledWorkflow;
  readonly conversation: ConversationManager;
  #state: ThreadState;
  #initial: readonly AnyTool[];
  #dynamic: readonly AnyTool[];
  /** Where the last checkpoint left the conversation: the next one stores only what follows. */
  checkpointCursor: ConversationCursor;
  lastCheckpointId: string | undefined;
  checkpointSequence: number;
  /**
   * What a failed checkpoint save goes back to: the state and conversation of the last stored
   * checkpoint, or of the thread as it was when first run. Kept by the executor.
   */
  lastSavedState: ThreadState | undefined;
  lastSavedCursor: ConversationCursor | undefined;
  /** Set while an executor runs this thread, so two executors cannot drive it at once. */
  running = false;

  constructor(parts: {
    workflow: CompiledWorkflow;
    conversation: ConversationManager;
    state: ThreadState;
    initialTools: readonly AnyTool[];
    dynamicTools?: readonly AnyTool[];
    checkpointCursor?: ConversationCursor;
    lastCheckpointId?: string;
    checkpointSequence?: number;
  }) {
    this.threadId = parts.state.threadId;
    this.workflow = parts.workflow;
    this.conversation = parts.conversation;
    // Everything a caller can reach through the getters is frozen, so nobody changes the state
    // behind the executor's back; tool failure counts are keyed by model-chosen names.
    const state = parts.state;
    this.#state = withChanges(state, {
      variables: deepFreeze(state.variables),
      nodeOutputs: deepFreeze(state.nodeOutputs),
      input: deepFreeze(state.input),
      output: deepFreeze(state.output),
      lastOutput: deepFreeze(state.lastOutput),
      error: deepFreeze(state.error),
      pending: deepFreeze(state.pending),
      dynamicTools: Object.freeze([...state.dynamicTools]),
      toolFailures: withToolFailures(state.toolFailures, () => {}),
      firedTriggers: Object.freeze([...state.firedTriggers]),
    });
    this.#initial = Object.freeze([...parts.initialTools]);
    this.#dynamic = Object.freeze([...(parts.dynamicTools ?? [])]);
    this.checkpointCursor = parts.checkpointCursor ?? { messages: 0, log: 0 };
    this.lastCheckpointId = parts.lastCheckpointId;
    this.checkpointSequence = parts.checkpointSequence ?? 0;
    this.lastSavedState = undefined;
    this.lastSavedCursor = undefined;
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

  /** Changes the state through an immer recipe; the previous state object is never modified. */
  update(recipe: (draft: Draft<ThreadState>) => void): ThreadState {
    this.#state = produce(this.#state, recipe);
    return this.#state;
  }

  /** Puts back an earlier state (used to undo a node that did not complete). */
  resetState(state: ThreadState): void {
    if (state.threadId !== this.#state.threadId)
      throw new InvalidArgumentError(
        'state',
        `state belongs to thread ${state.threadId}, not ${this.#state.threadId}`,
      );
    this.#state = state;
  }

  /**
   * Replaces top-level fields. The executor's per-node bookkeeping goes through here rather than
   * immer: the result is the same frozen, structurally shared object, without a proxy per step
   * (immer's drafts cost more than the rest of a step together).
   */
  patch(changes: Partial<ThreadState>): ThreadState {
    this.#state = withChanges(this.#state, changes);
    return this.#state;
  }

  /**
   * Sets a variable to a frozen copy of `value`. Throws `ValueNotJsonError` (state untouched) for
   * what JSON cannot carry: a BigInt, NaN, ±Infinity, a function, a class instance, a cycle.
   */
  setVariable(name: string, value: unknown): void {
    checkVariableName(name);
    if (!isJsonPrimitive(value)) requireJsonValue(value, `variable "${name}"`, `vars.${name}`);
    this.patch({
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
    this.patch({ variables: Object.freeze(variables) });
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
  addDynamicTools(tools: readonly AnyTool[]): void {
    // Checked like registered tools, before anything changes: a bad one would fail every call.
    for (const tool of tools) checkTool(tool);
    const names = new Set(tools.map((t) => t.name));
    this.#dynamic = Object.freeze([...this.#dynamic.filter((t) => !names.has(t.name)), ...tools]);
    this.update((draft) => {
      draft.dynamicTools = this.#dynamic.map((t) => t.name);
    });
  }

  removeDynamicTool(name: string): boolean {
    const before = this.#dynamic.length;
    this.#dynamic = Object.freeze(this.#dynamic.filter((t) => t.name !== name));
    if (this.#dynamic.length === before) return false;
    this.update((draft) => {
      draft.dynamicTools = this.#dynamic.map((t) => t.name);
    });
    return true;
  }

  /** What expressions and templates can read. */
  scope(): ExpressionScope {
    const s = this.#state;
    return {
      vars: s.variables,
      input: s.input,
      nodes: s.nodeOutputs,
      output: s.lastOutput,
      thread: { id: s.threadId, step: s.step, status: s.status },
    };
  }
}
