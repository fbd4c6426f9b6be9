import { randomUUID } from 'node:crypto';
import {
  ConversationManager,
  type ConversationManagerOptions,
  type TokenCounter,
  type ToolDescriptionFormatter,
} from '@skein/conversation';
import { checkPrincipal, checkThreadId, InvalidArgumentError, type LLMMessage } from '@skein/spec';
import type { ValidateFunction } from 'ajv';
import { ThreadError } from '../errors/thread-error.js';
import type { SkeinEmitter } from '../events/emitter.js';
import { ThreadEventForwarder } from '../events/thread-event-forwarder.js';
import { JsonSchemaCompiler } from '../tools/json-schema-compiler.js';
import type { Tool } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { deepFreeze, frozenCopy } from '../util/freeze.js';
import { IsoClock } from '../util/iso-clock.js';
import type { CompiledWorkflow } from '../workflow/compiled-workflow.js';
import type { WorkflowRegistry } from '../workflow/workflow-registry.js';
import { checkStoredState } from './check-stored-state.js';
import { type ConversationSeed, makeSeed, sameTools } from './conversation-seed.js';
import { requireJsonValue } from './json-state-value.js';
import { restoredState, ThreadContext } from './thread-context.js';
import type { StoredThread, ThreadParent, ThreadState } from './thread-state.js';
import { NO_TOOL_FAILURES } from './tool-failure-counts.js';

type AnyTool = Tool;

// What every new thread starts with, frozen once and shared (a fan-out builds thousands at once).
// A new thread has failed no tool yet: one frozen null-prototype record serves them all.
const NO_OUTPUTS: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_TOOLS: readonly AnyTool[] = Object.freeze([]);

export interface BuildThreadOptions {
  /** A string becomes the first user message; anything else is kept as `input` for expressions. */
  readonly input?: unknown;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly threadId?: string;
  readonly version?: string;
  /** Messages to seed the conversation with (after the tool description). */
  readonly messages?: readonly LLMMessage[];
  /**
   * Whose thread it is (a user id, a token's subject; see `checkPrincipal`): kept in its state
   * for good, carried by its forks and child threads. A principal's view of the engine
   * (`engine.forPrincipal`) finds only threads built for that principal.
   */
  readonly principal?: string;
}

/**
 * What links a child thread to its parent, but `forkedAt`, which its conversation gives.
 * @internal
 */
export interface ChildLink {
  readonly parentThreadId: string;
  readonly nodeId: string;
  readonly rootThreadId: string;
  readonly branchPath: string;
  readonly depth: number;
  /** A branch ends on reaching this node (its JOIN). */
  readonly stopAt: string | undefined;
  /** The node the child starts at instead of its workflow's START. */
  readonly startAt: string | undefined;
  /** The child's conversation starts with its parent's view; its own begins after it. */
  readonly forked: boolean;
}

export interface ThreadBuilderOptions {
  readonly workflows: WorkflowRegistry;
  readonly tools: ToolRegistry;
  /** Conversation events of every thread are forwarded here with the thread id. */
  readonly emitter?: SkeinEmitter;
  readonly formatToolDescription?: ToolDescriptionFormatter;
  readonly tokenCounter?: TokenCounter;
  /** The most bytes one attachment of a message may hold (see `SkeinEngineOptions`). */
  readonly maxAttachmentBytes?: number;
}

export interface FromCheckpointOptions {
  /** Dynamic tools not in the engine's registry, to re-attach by name. */
  readonly dynamicTools?: readonly Tool<never>[];
  /**
   * Continue under a new thread id (time travel from an older checkpoint). Its first checkpoint
   * names the one it was built from, and the store shares the conversation up to there.
   */
  readonly forkAs?: string;
}

/** The `parent` of a child's first state, once its conversation holds what it was forked with. */
function parentOf(link: ChildLink, messageCount: number): ThreadParent {
  const forkedAt = link.forked ? messageCount : 0;
  const { parentThreadId: threadId, nodeId, rootThreadId, branchPath, depth, stopAt } = link;
  // Two literals rather than a conditional spread: no temporary object per branch.
  return Object.freeze(
    stopAt === undefined
      ? { threadId, nodeId, rootThreadId, branchPath, depth, forkedAt }
      : { threadId, nodeId, rootThreadId, branchPath, depth, stopAt, forkedAt },
  );
}

/**
 * Builds `ThreadContext`s: one per run of a workflow, each with its own conversation, variables
 * and tools. The initial tool description is put in place by an explicit
 * `startNewBatchWithInitialTools(0)` after construction, never from a constructor.
 */
export class ThreadBuilder {
  // Per workflow, the seeds of its child threads' conversations: one for isolated children, one
  // per view that children were forked from (kept as long as that view's array is).
  readonly #seeds = new WeakMap<
    CompiledWorkflow,
    { isolated: ConversationSeed | undefined; forked: WeakMap<object, ConversationSeed> }
  >();
  readonly #options: ThreadBuilderOptions;
  readonly #validators = new WeakMap<CompiledWorkflow, ValidateFunction | null>();
  /** A fan-out builds thousands of child threads at once, each stamped with the time. */
  readonly #clock = new IsoClock();
  // The same dialect rules as tool schemas: a 2020-12 variables schema must not fail at build.
  readonly #schemas = new JsonSchemaCompiler({ useDefaults: true });

  constructor(options: ThreadBuilderOptions) {
    this.#options = options;
  }

  build(workflowId: string, options: BuildThreadOptions = {}): ThreadContext {
    // A caller's id (a child's is derived from its parent's): one a store would change is refused.
    if (options.threadId !== undefined) checkThreadId(options.threadId);
    if (options.principal !== undefined) checkPrincipal(options.principal);
    const workflow = this.#options.workflows.get(workflowId, options.version);
    return this.#build(workflow, this.#variables(workflow, options.variables), options);
  }

  /**
   * A child thread (a branch, a child workflow), linked to its parent from its first state.
   * `branchVariables` are the parent's state values as they are (already checked, frozen JSON),
   * neither copied nor checked again; without them, `options.variables` are checked as `build`
   * checks them.
   * @internal
   */
  buildChild(
    workflowId: string,
    options: BuildThreadOptions,
    link: ChildLink,
    branchVariables?: Readonly<Record<string, unknown>>,
  ): ThreadContext {
    const workflow = this.#options.workflows.get(workflowId, options.version);
    const variables = branchVariables ?? this.#variables(workflow, options.variables);
    return this.#build(workflow, variables, options, link);
  }

  #build(
    workflow: CompiledWorkflow,
    variables: Readonly<Record<string, unknown>>,
    options: BuildThreadOptions,
    link?: ChildLink,
  ): ThreadContext {
    // Kept as a frozen copy: the caller's object stays the caller's.
    if (options.input !== undefined) requireJsonValue(options.input, 'input', 'input');
    const input = frozenCopy(options.input);
    const initialTools = this.#initialTools(workflow);
    const threadId = options.threadId ?? randomUUID();
    let context: ThreadContext | undefined;
    // Until the context exists the description reads `initialTools`, the list the context keeps
    // a copy of.
    const initialToolsNow = () => context?.initialToolSpecs() ?? initialTools;
    // A child's conversation waits for its first use (most branches of a fan-out never use it),
    // unless someone listens for the events building it sends, or a string input is added to it.
    const seed =
      link !== undefined && typeof options.input !== 'string' && !this.#conversationHeard()
        ? this.#seedFor(workflow, options.messages, initialTools)
        : undefined;
    let conversation: ConversationManager | undefined;
    if (seed === undefined) {
      // The conversation first: a child's link says where its own messages begin.
      conversation = new ConversationManager(this.#conversationOptions(threadId, initialToolsNow));
      conversation.startNewBatchWithInitialTools(0);
      for (const message of options.messages ?? []) conversation.addMessage(message);
    }
    // Frozen and complete as it is, so the context takes it without a normalised copy.
    const state: ThreadState = Object.freeze({
      threadId,
      workflowId: workflow.id,
      workflowVersion: workflow.version,
      status: 'PENDING',
      step: 0,
      currentNodeId: link?.startAt ?? workflow.startNodeId,
      input,
      variables: deepFreeze(variables),
      nodeOutputs: NO_OUTPUTS,
      dynamicTools: NO_NAMES,
      toolFailures: NO_TOOL_FAILURES,
      firedTriggers: NO_NAMES,
      createdAt: this.#clock.now(),
      parent: link
        ? parentOf(link, seed ? seed.cursor.messages : conversation!.getTotalMessageCount())
        : undefined,
      principal: options.principal,
    });
    context = new ThreadContext({
      workflow,
      conversation: conversation ?? {
        seed: seed!,
        build: () =>
          ConversationManager.restore(
            seed!.delta,
            this.#conversationOptions(threadId, initialToolsNow),
          ),
      },
      state,
      initialTools,
    });
    if (typeof options.input === 'string')
      context.conversation.addMessage({ role: 'user', content: options.input });
    return context;
  }

  /** Rebuilds a thread from a stored checkpoint (`CheckpointStore.load`). */
  fromCheckpoint(stored: StoredThread, options: FromCheckpointOptions = {}): ThreadContext {
    const state0 = checkStoredState(stored);
    const workflow = this.#options.workflows.get(state0.workflowId, state0.workflowVersion);
    const corrupt = (field: string, problem: string) =>
      ThreadError.stateCorrupt(state0.threadId, stored.checkpoint.id, field, problem);
    if (state0.currentNodeId !== undefined && !workflow.nodes.has(state0.currentNodeId))
      throw corrupt('state.currentNodeId', `names no node of workflow "${workflow.id}"`);
    if (state0.pending && !workflow.nodes.has(state0.pending.nodeId))
      throw corrupt('state.pending.nodeId', `names no node of workflow "${workflow.id}"`);
    const initialTools = this.#initialTools(workflow);
    const extra = new Map((options.dynamicTools ?? []).map((t) => [t.name, t]));
    const dynamicTools = state0.dynamicTools.map(
      (name) => extra.get(name) ?? this.#options.tools.require(name),
    );
    const state = options.forkAs ? { ...state0, threadId: options.forkAs } : state0;
    let context: ThreadContext | undefined;
    const conversation = ConversationManager.restore(
      stored.conversation,
      this.#conversationOptions(state.threadId, () => context?.initialToolSpecs() ?? initialTools),
    );
    context = new ThreadContext({
      workflow,
      conversation,
      state: restoredState(state),
      initialTools,
      dynamicTools,
      // Either way the stored conversation is where the next checkpoint starts: a fork's first
      // one names the checkpoint it continues, and the store shares that prefix.
      checkpointCursor: conversation.cursor(),
      ...(options.forkAs
        ? { forkOf: { threadId: state0.threadId, checkpointId: stored.checkpoint.id } }
        : {
            lastCheckpointId: stored.checkpoint.id,
            checkpointSequence: stored.checkpoint.sequence,
          }),
    });
    return context;
  }

  /** The workflow's initial tools, looked up now (none: the shared empty list). */
  #initialTools(workflow: CompiledWorkflow): readonly AnyTool[] {
    const names = workflow.definition.initialTools;
    if (!names || names.length === 0) return NO_TOOLS;
    return names.map((name) => this.#options.tools.require(name));
  }

  /** Whether anyone listens for the events a new conversation sends (its batch, its messages). */
  #conversationHeard(): boolean {
    const emitter = this.#options.emitter;
    return (
      emitter !== undefined &&
      (emitter.listenerCount('batch:started') > 0 || emitter.listenerCount('message:added') > 0)
    );
  }

  /** The seed of a child of `workflow` started with `messages` (a forked view) or none. */
  #seedFor(
    workflow: CompiledWorkflow,
    messages: readonly LLMMessage[] | undefined,
    tools: readonly AnyTool[],
  ): ConversationSeed {
    let seeds = this.#seeds.get(workflow);
    if (seeds === undefined) {
      seeds = { isolated: undefined, forked: new WeakMap() };
      this.#seeds.set(workflow, seeds);
    }
    const known = messages === undefined ? seeds.isolated : seeds.forked.get(messages);
    if (known !== undefined && sameTools(known.tools, tools)) return known;
    const { formatToolDescription, tokenCounter } = this.#options;
    const seed = makeSeed(tools, messages, {
      initialTools: () => tools,
      observer: undefined,
      formatToolDescription,
      tokenCounter,
    });
    if (messages === undefined) seeds.isolated = seed;
    else seeds.forked.set(messages, seed);
    return seed;
  }

  #conversationOptions(
    threadId: string,
    initialTools: () => readonly AnyTool[],
  ): ConversationManagerOptions {
    const { emitter, formatToolDescription, tokenCounter, maxAttachmentBytes } = this.#options;
    return {
      initialTools,
      observer: emitter ? new ThreadEventForwarder(emitter, threadId) : undefined,
      formatToolDescription,
      tokenCounter,
      ...(maxAttachmentBytes === undefined ? {} : { maxAttachmentBytes }),
    };
  }

  #variables(
    workflow: CompiledWorkflow,
    given: Readonly<Record<string, unknown>> | undefined,
  ): Record<string, unknown> {
    if (
      given !== undefined &&
      (typeof given !== 'object' || given === null || Array.isArray(given))
    )
      throw new InvalidArgumentError('variables', 'variables must be an object of name: value');
    const merged: Record<string, unknown> = {
      ...(workflow.definition.variables?.defaults ?? {}),
      ...(given ?? {}),
    };
    // Checked before the copy: structuredClone would fail on a function with a DOMException,
    // and keep a BigInt or NaN that a store would then refuse or change.
    for (const name of Object.keys(merged))
      requireJsonValue(merged[name], `variable "${name}"`, `vars.${name}`);
    const variables = structuredClone(merged);
    // Checked in place: the schema's defaults fill the new thread's variables.
    const problems = this.variableProblems(workflow, variables, false);
    if (problems !== undefined) throw ThreadError.invalidVariables(workflow.id, problems);
    return variables;
  }

  /**
   * What `workflow`'s variables schema finds wrong with `variables` (one line), or undefined
   * when it accepts them (or has no schema). An upgrade checks a migration's result with it.
   * @internal
   */
  variableProblems(
    workflow: CompiledWorkflow,
    variables: Readonly<Record<string, unknown>>,
    copy = true,
  ): string | undefined {
    const schema = workflow.definition.variables?.schema;
    if (!schema) return undefined;
    let validate = this.#validators.get(workflow);
    if (validate === undefined) {
      try {
        validate = this.#schemas.compile(schema);
      } catch (error) {
        throw ThreadError.invalidVariables(
          workflow.id,
          `variables.schema cannot be compiled: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      this.#validators.set(workflow, validate);
    }
    // The validator may fill defaults in: unless told, it checks a copy, never a frozen object.
    if (validate && !validate(copy ? structuredClone(variables) : variables))
      return this.#schemas.errorsText(validate.errors);
    return undefined;
  }
}
