import { isToolDescription } from '@skein/conversation';
import type { LLMMessage } from '@skein/spec';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { NodeError } from '../errors/node-error.js';
import type { SkeinEmitter } from '../events/emitter.js';
import type { BuildThreadOptions, ChildLink, ThreadBuilder } from '../thread/thread-builder.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { ChildPlan, ChildResult } from './child-plan.js';
import type { MergeFunction } from './merge.js';

/** How the runner drives a thread: the executor's `execute` and `resume`. */
interface ThreadDriver {
  execute(
    thread: ThreadContext,
    options: { signal: AbortSignal | undefined; maxSteps: number },
  ): Promise<unknown>;
  resume(
    thread: ThreadContext,
    resume: ChildResume & { readonly wake: true },
    options: { signal: AbortSignal | undefined; maxSteps: number },
  ): Promise<unknown>;
}

/** What a waiting child is resumed with: its input, or its wait's timeout. */
export interface ChildResume {
  readonly input: unknown;
  readonly timedOut?: boolean;
}

export interface ChildRunnerOptions {
  readonly builder: ThreadBuilder;
  readonly driver: ThreadDriver;
  readonly emitter: SkeinEmitter;
  readonly store?: CheckpointStore;
  /** How deep child threads may nest (default 8). */
  readonly maxDepth?: number;
  readonly mergers?: Readonly<Record<string, MergeFunction>>;
}

export interface RunChildOptions {
  readonly nodeId: string;
  /** The parent run's signal; absent when nothing can cancel it. */
  readonly signal: AbortSignal | undefined;
  readonly maxSteps: number;
  /** Look for the child in the store first (the node runs again after a crash, failure or pause). */
  readonly recovering: boolean;
  /** The input for a child that waits (its resume), when this run answers it. */
  readonly resume?: ChildResume;
}

const DEFAULT_MAX_DEPTH = 8;

function joinPath(base: string | undefined, path: string): string {
  return base ? `${base}/${path}` : path;
}

/**
 * Starts, finds and runs child threads (branches, subworkflows, workflow tools) for the nodes
 * that need them. A child is a thread like any other — its own id, checkpoints, events — with a
 * `parent` link; the same plan always gives the same id, so a node run again after a crash finds
 * its finished children in the store instead of running them twice.
 */
export class ChildRunner {
  readonly #options: ChildRunnerOptions;
  /**
   * The parent's view is one frozen array until it changes, and a fan-out forks every branch from
   * the same one: filtered once per view, not once per branch.
   */
  readonly #forkedViews = new WeakMap<readonly LLMMessage[], readonly LLMMessage[]>();
  readonly maxDepth: number;

  constructor(options: ChildRunnerOptions) {
    this.#options = options;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }
  /** The parent's visible messages a forked child starts with (it describes its tools itself). */
  #forkedMessages(parent: ThreadContext): readonly LLMMessage[] {
    const view = parent.conversation.getMessages();
    let forked = this.#forkedViews.get(view);
    if (!forked) {
      forked = Object.freeze(view.filter((message) => !isToolDescription(message)));
      this.#forkedViews.set(view, forked);
    }
    return forked;
  }

  /** True when children are checkpointed: a finished one can be found again in the store. */
  get durable(): boolean {
    return this.#options.store !== undefined;
  }

  get mergers(): Readonly<Record<string, MergeFunction>> {
    return this.#options.mergers ?? {};
  }

  /** Throws a `NodeError` (`SUBWORKFLOW_DEPTH_EXCEEDED`) when a child of `parent` is too deep. */
  checkDepth(parent: ThreadContext, workflowId: string): void {
    const depth = (parent.state.parent?.depth ?? 0) + 1;
    if (depth > this.maxDepth)
      throw NodeError.subworkflowDepth(
        workflowId,
        this.maxDepth,
        parent.state.parent?.branchPath ?? '',
      );
  }

  /** Finds or builds the child, runs it as far as it goes, and says how it stands. */
  async run(
    parent: ThreadContext,
    plan: ChildPlan,
    options: RunChildOptions,
  ): Promise<ChildResult> {
    this.checkDepth(parent, plan.workflowId);
    const child =
      parent.record.held?.get(plan.threadId) ??
      (options.recovering ? await this.#load(plan.threadId) : undefined) ??
      this.#build(parent, plan, options.nodeId);
    const link = child.state.parent;
    const emitter = this.#options.emitter;
    if (link) emitter.scopeThread(child.threadId, link);
    try {
      const run = { signal: options.signal, maxSteps: options.maxSteps };
      const status = child.status;
      if (status === 'PAUSED' || status === 'WAITING') {
        // The top-level thread's claim decided who may answer (a caller, or the engine's wake):
        // a child, at any depth, is resumed on that claim, never by a timer or signal of its own.
        if (options.resume)
          await this.#options.driver.resume(child, { ...options.resume, wake: true }, run);
      } else if (status !== 'COMPLETED') {
        await this.#options.driver.execute(child, run);
      }
    } finally {
      emitter.unscopeThread(child.threadId);
    }
    return resultOf(plan, child);
  }

  async #load(threadId: string): Promise<ThreadContext | undefined> {
    const store = this.#options.store;
    if (!store) return undefined;
    const stored = await store.load(threadId);
    return stored ? this.#options.builder.fromCheckpoint(stored) : undefined;
  }

  #build(parent: ThreadContext, plan: ChildPlan, nodeId: string): ThreadContext {
    const up = parent.state.parent;
    const options: BuildThreadOptions = {
      threadId: plan.threadId,
      version: plan.version,
      messages: plan.conversation === 'forked' ? this.#forkedMessages(parent) : undefined,
      input: plan.message,
      variables: plan.checkVariables ? plan.variables : undefined,
      // A child belongs to whom its parent does.
      principal: parent.state.principal,
    };
    // The link goes into the child's first state: no second state per child to set it.
    const link: ChildLink = {
      parentThreadId: parent.threadId,
      nodeId,
      rootThreadId: up?.rootThreadId ?? parent.threadId,
      branchPath: joinPath(up?.branchPath, plan.path),
      depth: (up?.depth ?? 0) + 1,
      stopAt: plan.stopAt,
      startAt: plan.startAt,
      forked: plan.conversation === 'forked',
    };
    return this.#options.builder.buildChild(
      plan.workflowId,
      options,
      link,
      plan.checkVariables ? undefined : plan.variables,
    );
  }
}

function resultOf(plan: ChildPlan, thread: ThreadContext): ChildResult {
  const state = thread.state;
  const status = state.status;
  const threadId = thread.threadId;
  if (status === 'COMPLETED') return { plan, threadId, thread, status, output: state.output };
  if (status === 'FAILED' || status === 'CANCELLED')
    return {
      plan,
      threadId,
      thread,
      status,
      error: state.error
        ? { code: state.error.code, message: state.error.message }
        : { code: status === 'CANCELLED' ? 'THREAD_CANCELLED' : 'INTERNAL_ERROR', message: status },
    };
  // A child that waits for time or an event waits like one that waits for input.
  if (status === 'PAUSED' || status === 'WAITING')
    return { plan, threadId, thread, status: 'PAUSED' };
  // PENDING or RUNNING after a run: the run was refused (another executor holds it).
  return {
    plan,
    threadId,
    thread,
    status: 'FAILED',
    error: { code: 'THREAD_STATE', message: `thread ${thread.threadId} is ${status}` },
  };
}
