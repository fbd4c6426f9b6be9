import {
  type ConversationCursor,
  type ConversationDelta,
  SkeinError,
  SNAPSHOT_VERSION,
  type TokenUsage,
} from '@skein/conversation';
import type { Checkpoint, CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { CheckpointSaveError } from '../errors/checkpoint-save-error.js';
import { StateCorruptError } from '../errors/state-corrupt-error.js';
import {
  MaxStepsExceededError,
  NodeExecutionError,
  ResumeInputError,
  ThreadCancelledError,
  ThreadStateError,
} from '../errors/thread-errors.js';
import type { SkeinEmitter } from '../events/emitter.js';
import type { LLMClient } from '../llm/llm-client.js';
import { contextProcessorHandler } from '../nodes/context-processor-node.js';
import { llmNodeHandler } from '../nodes/llm-node.js';
import type { NodeHandler, NodeOutcome, NodeServices } from '../nodes/node-handler.js';
import {
  endHandler,
  routeHandler,
  startHandler,
  toolNodeHandler,
  userInteractionHandler,
  variableHandler,
} from '../nodes/simple-nodes.js';
import { checkOptionalNumber } from '../options/check-number.js';
import { frozenCopy } from '../thread/freeze.js';
import { isJsonPrimitive, requireJsonValue } from '../thread/json-state-value.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type {
  PendingInteraction,
  SerializedError,
  ThreadState,
  ThreadStatus,
} from '../thread/thread-state.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolRunner } from '../tools/tool-runner.js';
import type { NodeDefinition, NodeType } from '../workflow/types.js';
import { nextNode } from './routing.js';
import { runTriggers } from './triggers.js';
import { yieldToEventLoop } from './yield-to-event-loop.js';

export interface ThreadResult {
  readonly threadId: string;
  readonly status: Exclude<ThreadStatus, 'PENDING' | 'RUNNING'>;
  readonly output?: unknown;
  /** Why the thread failed or was cancelled. */
  readonly error?: SkeinError;
  /** Nodes run in this call. */
  readonly steps: number;
  /** Nodes run over the thread's whole life. */
  readonly totalSteps: number;
  readonly usage: TokenUsage;
  /** What a PAUSED thread waits for. */
  readonly pending?: PendingInteraction;
  readonly lastCheckpointId?: string;
}

export interface ExecuteOptions {
  readonly signal?: AbortSignal;
  /** Upper bound on nodes run in this call: an integer from 1 to 2^53 - 1 (default 1,000). */
  readonly maxSteps?: number;
}

const MAX_STEPS_RANGE = { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true } as const;

/**
 * How long synchronous nodes may run back to back before the executor lets the event loop turn
 * (timers, I/O, other threads, an abort). A few milliseconds keeps the pause cost far below 1%.
 */
const YIELD_EVERY_MS = 4;

/** Internal: a store refused a checkpoint; carries the store's error to `#run`. */
class SaveFailure extends Error {
  constructor(readonly reason: unknown) {
    super('checkpoint save failed');
  }
}

export interface ThreadExecutorOptions {
  readonly tools: ToolRegistry;
  readonly toolRunner: ToolRunner;
  readonly emitter: SkeinEmitter;
  /** The model, or a function choosing one per LLM node. */
  readonly llm?: LLMClient | ((node: NodeDefinition) => LLMClient);
  readonly store?: CheckpointStore;
  /** Extra or replacement node handlers by node type. */
  readonly handlers?: Partial<Record<NodeType, NodeHandler<never>>>;
}

const DEFAULT_HANDLERS: Record<NodeType, NodeHandler<never>> = {
  START: startHandler,
  END: endHandler,
  LLM: llmNodeHandler,
  TOOL: toolNodeHandler,
  ROUTE: routeHandler,
  CONTEXT_PROCESSOR: contextProcessorHandler,
  VARIABLE: variableHandler,
  USER_INTERACTION: userInteractionHandler,
};

let lastMs = 0;
let lastIso = '';
/** The current time as ISO text, formatted at most once per millisecond. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

function serialize(error: SkeinError, nodeId?: string): SerializedError {
  return { code: error.code, message: error.message, ...(nodeId ? { nodeId } : {}) };
}

/**
 * Drives threads: pick the current node, run its handler, route, run triggers, checkpoint,
 * repeat — until the thread ends, pauses, fails, is cancelled or uses up `maxSteps`. It holds no
 * per-thread state, so one executor runs any number of threads concurrently.
 */
export class ThreadExecutor {
  readonly #handlers: Record<NodeType, NodeHandler<never>>;
  readonly #services: NodeServices;
  readonly #emitter: SkeinEmitter;
  readonly #store: CheckpointStore | undefined;

  constructor(options: ThreadExecutorOptions) {
    this.#handlers = { ...DEFAULT_HANDLERS, ...options.handlers } as Record<
      NodeType,
      NodeHandler<never>
    >;
    this.#emitter = options.emitter;
    this.#store = options.store;
    const llm = options.llm;
    this.#services = {
      emitter: options.emitter,
      tools: options.tools,
      toolRunner: options.toolRunner,
      llmFor: (node) => {
        if (!llm)
          throw new SkeinError(
            'NO_LLM_CLIENT',
            `LLM node "${node.id}" needs a model: pass \`llm\` to the executor`,
          );
        return typeof llm === 'function' ? llm(node) : llm;
      },
    };
  }

  /** Runs a new, failed, cancelled or crashed-and-rebuilt thread from its current node. */
  execute(thread: ThreadContext, options: ExecuteOptions = {}): Promise<ThreadResult> {
    let maxSteps: number;
    try {
      maxSteps = checkOptionalNumber('maxSteps', options.maxSteps, MAX_STEPS_RANGE, 1_000);
    } catch (error) {
      return Promise.reject(error);
    }
    const status = thread.status;
    if (status === 'COMPLETED')
      return Promise.reject(
        new ThreadStateError(thread.threadId, status, 'it has already completed'),
      );
    if (status === 'PAUSED')
      return Promise.reject(
        new ThreadStateError(
          thread.threadId,
          status,
          'it waits for input; call resume(thread, input)',
        ),
      );
    return this.#run(thread, options.signal, maxSteps, undefined);
  }

  /** Continues a PAUSED thread with the input it waits for (an answer, or tool approvals). */
  resume(
    thread: ThreadContext,
    input: unknown,
    options: ExecuteOptions = {},
  ): Promise<ThreadResult> {
    let maxSteps: number;
    try {
      maxSteps = checkOptionalNumber('maxSteps', options.maxSteps, MAX_STEPS_RANGE, 1_000);
    } catch (error) {
      return Promise.reject(error);
    }
    if (thread.status !== 'PAUSED' || !thread.state.pending)
      return Promise.reject(
        new ThreadStateError(thread.threadId, thread.status, 'only a PAUSED thread can be resumed'),
      );
    if (input === undefined)
      return Promise.reject(
        new ResumeInputError(
          thread.threadId,
          `it waits for ${thread.state.pending.kind}; input is missing`,
        ),
      );
    return this.#run(thread, options.signal, maxSteps, { input });
  }

  async #run(
    thread: ThreadContext,
    givenSignal: AbortSignal | undefined,
    maxSteps: number,
    resume: { input: unknown } | undefined,
  ): Promise<ThreadResult> {
    if (thread.running)
      throw new ThreadStateError(thread.threadId, thread.status, 'another executor is running it');
    thread.running = true;
    const signal = givenSignal ?? new AbortController().signal;
    const emitter = this.#emitter;
    const threadId = thread.threadId;
    let steps = 0;
    let resumeInput = resume;
    let lastYield = performance.now();
    // Before the first save of this thread object, a failed save goes back to how it is now.
    if (thread.lastSavedState === undefined) {
      thread.lastSavedState = thread.state;
      thread.lastSavedCursor = thread.conversation.cursor();
    }
    try {
      if (thread.status === 'PENDING')
        emitter.emit('thread:started', {
          threadId,
          workflowId: thread.workflow.id,
          workflowVersion: thread.workflow.version,
        });
      thread.update((draft) => {
        draft.status = 'RUNNING';
        draft.error = undefined;
      });
      for (;;) {
        const nodeId = thread.state.currentNodeId;
        if (nodeId === undefined) return await this.#finish(thread, 'COMPLETED', steps);
        if (signal.aborted)
          return await this.#finish(thread, 'CANCELLED', steps, new ThreadCancelledError(threadId));
        if (steps >= maxSteps)
          return await this.#finish(
            thread,
            'FAILED',
            steps,
            new MaxStepsExceededError(threadId, maxSteps, nodeId),
          );
        const node = thread.workflow.nodes.get(nodeId);
        if (!node)
          return await this.#finish(
            thread,
            'FAILED',
            steps,
            new StateCorruptError(
              threadId,
              thread.lastCheckpointId,
              'state.currentNodeId',
              `names no node of workflow "${thread.workflow.id}"`,
            ),
          );
        const step = thread.state.step;
        if (emitter.listenerCount('node:started') > 0)
          emitter.emit('node:started', { threadId, nodeId, nodeType: node.type, step });
        const started = performance.now();
        // A node's effects count only if it completes, its triggers included: on failure or
        // cancellation the thread goes back to how it was when the node started (stored
        // messages stay stored).
        const cursorAtStart = thread.conversation.cursor();
        const stateAtStart = thread.state;
        let outcome: NodeOutcome;
        try {
          const handler = this.#handlers[node.type] as NodeHandler;
          const returned = handler({
            thread,
            node,
            signal,
            services: this.#services,
            ...(resumeInput ? { resume: resumeInput } : {}),
          });
          // Most nodes answer synchronously; awaiting only promises saves a microtask per step.
          outcome = returned instanceof Promise ? await returned : returned;
          resumeInput = undefined;
          if (outcome.kind !== 'pause') this.#complete(thread, nodeId, step, outcome);
        } catch (error) {
          this.#undoNode(thread, cursorAtStart, stateAtStart);
          if (signal.aborted)
            return await this.#finish(
              thread,
              'CANCELLED',
              steps,
              new ThreadCancelledError(threadId),
            );
          // Invalid resume input leaves the thread paused and untouched.
          if (SkeinError.hasCode(error, 'RESUME_INPUT_INVALID')) {
            thread.update((draft) => {
              draft.status = 'PAUSED';
            });
            throw error;
          }
          // Skein errors keep their code; anything else is wrapped with where it happened.
          const failure = SkeinError.isInstance(error)
            ? error
            : new NodeExecutionError(threadId, nodeId, error, thread.lastCheckpointId);
          emitter.emit('node:failed', {
            threadId,
            nodeId,
            nodeType: node.type,
            step,
            error: { code: failure.code, message: failure.message },
          });
          return await this.#finish(thread, 'FAILED', steps, failure, nodeId);
        }
        steps++;

        if (outcome.kind === 'pause') {
          thread.update((draft) => {
            draft.status = 'PAUSED';
            draft.pending = outcome.pending as typeof draft.pending;
          });
          await this.#checkpoint(thread);
          const pending = outcome.pending;
          emitter.emit('thread:paused', {
            threadId,
            nodeId,
            reason: pending.kind === 'user-input' ? 'user-input' : 'tool-approval',
            ...(pending.kind === 'user-input' && pending.prompt !== undefined
              ? { prompt: pending.prompt }
              : {}),
          });
          return this.#result(thread, 'PAUSED', steps);
        }

        const finished = performance.now();
        if (emitter.listenerCount('node:completed') > 0)
          emitter.emit('node:completed', {
            threadId,
            nodeId,
            nodeType: node.type,
            step,
            durationMs: finished - started,
            ...(outcome.kind === 'next' && outcome.status ? { status: outcome.status } : {}),
            ...(thread.state.currentNodeId ? { nextNodeId: thread.state.currentNodeId } : {}),
          });
        if (outcome.kind === 'end') return await this.#finish(thread, 'COMPLETED', steps);
        await this.#checkpoint(thread);
        if (finished - lastYield >= YIELD_EVERY_MS) {
          await yieldToEventLoop();
          lastYield = performance.now();
        }
      }
    } catch (error) {
      if (error instanceof SaveFailure) return await this.#saveFailed(thread, error.reason, steps);
      // Whatever else went wrong, the thread must not stay RUNNING.
      if (thread.status === 'RUNNING')
        thread.update((draft) => {
          draft.status = 'FAILED';
          draft.error = {
            code: SkeinError.isInstance(error) ? error.code : 'INTERNAL_ERROR',
            message: error instanceof Error ? error.message : String(error),
          };
        });
      throw error;
    } finally {
      thread.running = false;
    }
  }

  /**
   * Records a node that completed: its output, the next node, then the workflow's triggers. Runs
   * inside the node's error handling, so an output JSON cannot carry, a route that does not
   * exist or a failing trigger fail the node like an error of its own.
   */
  #complete(
    thread: ThreadContext,
    nodeId: string,
    step: number,
    outcome: Exclude<NodeOutcome, { kind: 'pause' }>,
  ): void {
    const output = outcome.output;
    if (output !== undefined && !isJsonPrimitive(output))
      requireJsonValue(output, `output of node "${nodeId}"`, `nodes.${nodeId}`);
    const next =
      outcome.kind === 'next'
        ? nextNode(thread.workflow, nodeId, this.#scopeAfter(thread, nodeId, output))
        : undefined;
    const state = thread.state;
    const stored = frozenCopy(output);
    thread.patch({
      step: step + 1,
      pending: undefined,
      currentNodeId: next,
      ...(stored === undefined
        ? {}
        : {
            nodeOutputs: Object.freeze({ ...state.nodeOutputs, [nodeId]: stored }),
            lastOutput: stored,
          }),
      ...(outcome.kind === 'end' ? { output: stored } : {}),
    });
    const triggers = thread.workflow.definition.triggers;
    if (outcome.kind === 'next' && triggers && triggers.length > 0) {
      const jump = runTriggers(thread, triggers, nodeId, this.#emitter);
      if (jump !== undefined) thread.patch({ currentNodeId: jump });
    }
  }

  #undoNode(thread: ThreadContext, cursor: ConversationCursor, state: ThreadState): void {
    const now = thread.conversation.cursor();
    if (now.messages !== cursor.messages || now.log !== cursor.log)
      thread.conversation.revertTo(cursor);
    thread.resetState(state);
  }

  #scopeAfter(thread: ThreadContext, nodeId: string, output: unknown) {
    const scope = thread.scope();
    if (output === undefined) return scope;
    return { ...scope, output, nodes: { ...(scope.nodes as object), [nodeId]: output } };
  }

  async #finish(
    thread: ThreadContext,
    status: 'COMPLETED' | 'FAILED' | 'CANCELLED',
    steps: number,
    error?: SkeinError,
    nodeId?: string,
  ): Promise<ThreadResult> {
    thread.update((draft) => {
      draft.status = status;
      draft.error = error ? serialize(error, nodeId) : undefined;
    });
    await this.#checkpoint(thread);
    const threadId = thread.threadId;
    const payload = {
      threadId,
      status,
      steps: thread.state.step,
      ...(status === 'COMPLETED' ? { output: thread.state.output } : {}),
      ...(error ? { error: { code: error.code, message: error.message } } : {}),
    };
    if (status === 'COMPLETED') this.#emitter.emit('thread:completed', payload);
    else if (status === 'FAILED') this.#emitter.emit('thread:failed', payload);
    else this.#emitter.emit('thread:cancelled', payload);
    return this.#result(thread, status, steps, error);
  }

  #result(
    thread: ThreadContext,
    status: ThreadResult['status'],
    steps: number,
    error?: SkeinError,
  ): ThreadResult {
    const state = thread.state;
    return {
      threadId: thread.threadId,
      status,
      ...(status === 'COMPLETED' ? { output: state.output } : {}),
      ...(error ? { error } : {}),
      steps,
      totalSteps: state.step,
      usage: thread.conversation.getUsage().total,
      ...(state.pending ? { pending: state.pending } : {}),
      ...(thread.lastCheckpointId ? { lastCheckpointId: thread.lastCheckpointId } : {}),
    };
  }

  /** Saves the state and the conversation added since the previous checkpoint. */
  async #checkpoint(thread: ThreadContext): Promise<void> {
    const store = this.#store;
    if (!store) return;
    await this.#save(store, thread, thread.conversation.deltaSince(thread.checkpointCursor));
  }

  async #save(
    store: CheckpointStore,
    thread: ThreadContext,
    conversation: ConversationDelta,
  ): Promise<void> {
    const sequence = thread.checkpointSequence + 1;
    const checkpoint: Checkpoint = {
      id: `${thread.threadId}:${sequence}`,
      threadId: thread.threadId,
      sequence,
      parentId: thread.lastCheckpointId,
      createdAt: isoNow(),
      state: thread.state,
      conversation,
    };
    try {
      await store.save(checkpoint);
    } catch (error) {
      throw new SaveFailure(error);
    }
    const cursor = {
      messages: conversation.from.messages + conversation.messages.length,
      log: conversation.from.log + conversation.log.length,
    };
    thread.checkpointCursor = cursor;
    thread.checkpointSequence = sequence;
    thread.lastCheckpointId = checkpoint.id;
    thread.lastSavedState = checkpoint.state;
    thread.lastSavedCursor = cursor;
    if (this.#emitter.listenerCount('checkpoint:saved') > 0)
      this.#emitter.emit('checkpoint:saved', {
        threadId: thread.threadId,
        checkpointId: checkpoint.id,
        step: thread.state.step,
      });
  }

  /**
   * A store refused a checkpoint. The thread goes back to its last stored checkpoint (what the
   * store and memory agree on) and ends FAILED — or PAUSED again when that checkpoint was waiting
   * for input — with a `CheckpointSaveError`, recorded in the store when it takes a checkpoint
   * again. A stale writer (`CHECKPOINT_CONFLICT`) is not recorded: the store's thread belongs to
   * someone else; the error is thrown, as before.
   */
  async #saveFailed(thread: ThreadContext, reason: unknown, steps: number): Promise<ThreadResult> {
    const saved = { state: thread.lastSavedState!, cursor: thread.lastSavedCursor! };
    const lastGood = thread.lastCheckpointId;
    const now = thread.conversation.cursor();
    if (now.messages !== saved.cursor.messages || now.log !== saved.cursor.log)
      thread.conversation.revertTo(saved.cursor);
    thread.resetState(saved.state);
    const conflict = SkeinError.hasCode(reason, 'CHECKPOINT_CONFLICT');
    const error = conflict ? reason : new CheckpointSaveError(thread.threadId, lastGood, reason);
    const status: 'PAUSED' | 'FAILED' = saved.state.status === 'PAUSED' ? 'PAUSED' : 'FAILED';
    thread.update((draft) => {
      draft.status = status;
      draft.error = serialize(error);
    });
    if (conflict) throw error;
    // The record holds the conversation up to where the thread went back to: nothing new when
    // a checkpoint was stored before, everything the thread was built with when none was.
    const from = thread.checkpointCursor;
    const since = thread.conversation.deltaSince(from);
    try {
      await this.#save(this.#store!, thread, {
        version: SNAPSHOT_VERSION,
        from,
        messages: since.messages.slice(0, saved.cursor.messages - from.messages),
        log: since.log.slice(0, saved.cursor.log - from.log),
      });
    } catch {
      // The store is still failing: memory alone knows; the error says where to go on from.
    }
    const payload = {
      threadId: thread.threadId,
      status,
      steps: thread.state.step,
      error: { code: error.code, message: error.message },
    };
    if (status === 'FAILED') this.#emitter.emit('thread:failed', payload);
    else
      this.#emitter.emit('warning', {
        threadId: thread.threadId,
        code: error.code,
        message: error.message,
      });
    return this.#result(thread, status, steps, error);
  }
}
