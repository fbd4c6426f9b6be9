import { type ConversationCursor, SkeinError, type TokenUsage } from '@skein/conversation';
import type { Checkpoint, CheckpointStore } from '../checkpoint/checkpoint-store.js';
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
  /** Upper bound on nodes run in this call (default 1,000). */
  readonly maxSteps?: number;
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
    return this.#run(thread, options, undefined);
  }

  /** Continues a PAUSED thread with the input it waits for (an answer, or tool approvals). */
  resume(
    thread: ThreadContext,
    input: unknown,
    options: ExecuteOptions = {},
  ): Promise<ThreadResult> {
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
    return this.#run(thread, options, { input });
  }

  async #run(
    thread: ThreadContext,
    options: ExecuteOptions,
    resume: { input: unknown } | undefined,
  ): Promise<ThreadResult> {
    if (thread.running)
      throw new ThreadStateError(thread.threadId, thread.status, 'another executor is running it');
    thread.running = true;
    const signal = options.signal ?? new AbortController().signal;
    const maxSteps = options.maxSteps ?? 1_000;
    const emitter = this.#emitter;
    const threadId = thread.threadId;
    let steps = 0;
    let resumeInput = resume;
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
        const node = thread.workflow.nodes.get(nodeId)!;
        const step = thread.state.step;
        if (emitter.listenerCount('node:started') > 0)
          emitter.emit('node:started', { threadId, nodeId, nodeType: node.type, step });
        const started = performance.now();
        // A node's effects count only if it completes: on failure or cancellation the thread
        // goes back to how it was when the node started (stored messages stay stored).
        const cursorAtStart = thread.conversation.cursor();
        const stateAtStart = thread.state;
        let outcome: NodeOutcome;
        let next: string | undefined;
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
          if (outcome.kind === 'next')
            next = nextNode(
              thread.workflow,
              nodeId,
              this.#scopeAfter(thread, nodeId, outcome.output),
            );
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

        const output = outcome.output;
        const state = thread.state;
        thread.patch({
          step: step + 1,
          pending: undefined,
          currentNodeId: outcome.kind === 'end' ? undefined : next,
          ...(output === undefined
            ? {}
            : {
                nodeOutputs: Object.freeze({ ...state.nodeOutputs, [nodeId]: output }),
                lastOutput: output,
              }),
          ...(outcome.kind === 'end' ? { output } : {}),
        });
        const triggers = thread.workflow.definition.triggers;
        if (outcome.kind === 'next' && triggers && triggers.length > 0) {
          const jump = runTriggers(thread, triggers, nodeId, emitter);
          if (jump !== undefined)
            thread.update((draft) => {
              draft.currentNodeId = jump;
            });
        }
        const durationMs = performance.now() - started;
        if (emitter.listenerCount('node:completed') > 0)
          emitter.emit('node:completed', {
            threadId,
            nodeId,
            nodeType: node.type,
            step,
            durationMs,
            ...(outcome.kind === 'next' && outcome.status ? { status: outcome.status } : {}),
            ...(thread.state.currentNodeId ? { nextNodeId: thread.state.currentNodeId } : {}),
          });
        if (outcome.kind === 'end') return await this.#finish(thread, 'COMPLETED', steps);
        await this.#checkpoint(thread);
      }
    } finally {
      thread.running = false;
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
    const conversation = thread.conversation.deltaSince(thread.checkpointCursor);
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
    await store.save(checkpoint);
    thread.checkpointCursor = thread.conversation.cursor();
    thread.checkpointSequence = sequence;
    thread.lastCheckpointId = checkpoint.id;
    if (this.#emitter.listenerCount('checkpoint:saved') > 0)
      this.#emitter.emit('checkpoint:saved', {
        threadId: thread.threadId,
        checkpointId: checkpoint.id,
        step: thread.state.step,
      });
  }
}
