import type { ConversationCursor } from '@skein/conversation';
import type { LLMClient } from '@skein/spec';
import { findNonJsonValue, SkeinError } from '@skein/spec';
import { ChildRunner } from '../branches/child-runner.js';
import type { MergeFunction } from '../branches/merge.js';
import { workflowCaller } from '../branches/workflow-caller.js';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { ThreadError } from '../errors/thread-error.js';
import type { SkeinEmitter } from '../events/emitter.js';
import type { GuardrailRegistry } from '../guardrails/guardrail-registry.js';
import { cachedAttachmentReader } from '../nodes/attachment-cache.js';
import type { NodeOutcome, NodeServices, ResumeInput } from '../nodes/node-handler.js';
import { EngineRunContext, type RunSignal } from '../nodes/node-run-context.js';
import type { ThreadBuilder } from '../thread/thread-builder.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { PendingInteraction, ThreadState } from '../thread/thread-state.js';
import type { ThreadTransition } from '../thread/thread-transition.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolRunner } from '../tools/tool-runner.js';
import { frozenCopy } from '../util/freeze.js';
import { IsoClock } from '../util/iso-clock.js';
import type { NodeDefinition } from '../workflow/types.js';
import { branchOutput } from './branch-output.js';
import { checkExecutable, checkMaxSteps, checkResumable } from './call-checks.js';
import { SaveFailure, saveCheckpoint, saveFailed, saveRefusal } from './checkpointing.js';
import { completeNode } from './complete-node.js';
import { LeaseKeeper, type LeaseOptions } from './lease-keeper.js';
import { nodeFailure } from './node-failure.js';
import { callHandler, defaultHandlers, type NodeHandlers } from './node-handlers.js';
import { resumeConflict } from './resume-conflict.js';
import { RunInbox } from './run-inbox.js';
import { checkStillLatest } from './still-latest.js';
import { emitNodeFailed, finishThread, pauseThread } from './thread-endings.js';
import type { ExecuteOptions, ThreadResult } from './thread-result.js';
import { RESUMED_MS, TurnSlice } from './turn-slice.js';
import { yieldToEventLoop } from './yield-to-event-loop.js';

export type { ExecuteOptions, ThreadResult } from './thread-result.js';

export interface ThreadExecutorOptions {
  readonly tools: ToolRegistry;
  readonly toolRunner: ToolRunner;
  readonly emitter: SkeinEmitter;
  /** The model, or a function choosing one per LLM node. */
  readonly llm?: LLMClient | ((node: NodeDefinition) => LLMClient);
  readonly store?: CheckpointStore;
  /** Extra or replacement node handlers by node type. */
  readonly handlers?: Partial<NodeHandlers>;
  /** Builds child threads (PARALLEL, MAP, SUBWORKFLOW, workflow tools); the engine passes its own. */
  readonly builder?: ThreadBuilder;
  /** How deep child threads may nest (default 8). */
  readonly maxDepth?: number;
  /** Merge functions a JOIN or SUBWORKFLOW can name (`merge: { function: name }`). */
  readonly mergers?: Readonly<Record<string, MergeFunction>>;
  /** Guardrails workflows, LLM nodes and tools name (the engine's registry). */
  readonly guardrails?: GuardrailRegistry;
  /** With a store: who this process is in the store's thread leases, and for how long they last. */
  readonly lease?: Omit<LeaseOptions, 'store'>;
  /** The clock waits are measured from, in epoch ms (default the lease's, else `Date.now`). */
  readonly now?: () => number;
  /**
   * Whether this process posted an interrupt for a thread it runs (the engine's sends): between
   * nodes the run reads its inbox only then (decision 0036).
   */
  readonly interruptPosted?: (threadId: string) => boolean;
}

/**
 * What a run resumes a thread with: a caller's input (`resume`), or — `wake` — the engine's own
 * claim of a wait: a sleep's time, an event's payload, or a deadline (`timedOut`).
 */
export interface ResumeWith extends ResumeInput {
  /** The engine wakes a WAITING thread or times a wait out (a caller cannot). */
  readonly wake?: boolean;
}

/** A run that has taken its thread: `result` settles when it ends, pauses or fails. */
export interface StartedRun {
  readonly threadId: string;
  /** The checkpoint the run starts from (for a resume, the one that claimed the pause). */
  readonly checkpointId: string | undefined;
  readonly result: Promise<ThreadResult>;
}

function releaseRun(thread: ThreadContext): void {
  thread.record.running = false;
  thread.record.owner = undefined;
}

const RUN_STARTED: ThreadTransition = Object.freeze({ type: 'run-started' });

/** One `execute` or `resume` call: what the loop and `#runNode` share. */
interface Run extends RunSignal {
  readonly thread: ThreadContext;
  readonly maxSteps: number;
  /** A branch ends on reaching this node (its JOIN). */
  readonly stopAt: string | undefined;
  /** The next node runs again rather than for the first time (see `NodeRunContext.recovering`). */
  recovering: boolean;
  steps: number;
  /** The input given to `resume`, until the node waiting for it has taken it. */
  resume: ResumeInput | undefined;
  /** After a yield, the thread runs on until this time whatever the slice (`RESUMED_MS`). */
  resumedUntil: number;
  /** A top-level thread's inbox, when the store keeps one. */
  readonly inbox: RunInbox | undefined;
}

/** One node being run: what undoing it or reporting it needs. */
interface Attempt {
  readonly node: NodeDefinition;
  readonly step: number;
  readonly started: number;
  readonly cursor: ConversationCursor;
  readonly state: ThreadState;
}

/** How a node ended, as the loop sees it. */
type NodeStep =
  | Exclude<NodeOutcome, { kind: 'pause' }>
  | {
      readonly kind: 'pause';
      readonly pending: PendingInteraction;
      readonly toolFailures: Readonly<Record<string, number>> | undefined;
      readonly guarded: Readonly<Record<string, number>> | undefined;
    }
  | {
      readonly kind: 'failed';
      readonly status: 'FAILED' | 'CANCELLED';
      readonly error: SkeinError;
    }
  /** The node refused the answer it was resumed with: the pause is given back, then rethrown. */
  | { readonly kind: 'refused'; readonly error: SkeinError };

/**
 * Drives threads: pick the current node, run its handler, route, run triggers, checkpoint,
 * repeat — until the thread ends, pauses, fails, is cancelled or uses up `maxSteps`. It holds no
 * per-thread state, so one executor runs any number of threads concurrently.
 */
export class ThreadExecutor {
  readonly #handlers: NodeHandlers;
  readonly #services: NodeServices;
  readonly #emitter: SkeinEmitter;
  readonly #clock = new IsoClock();
  readonly #slice = new TurnSlice();
  readonly #store: CheckpointStore | undefined;
  readonly #leases: LeaseKeeper | undefined;
  readonly #interruptPosted: (threadId: string) => boolean;

  constructor(options: ThreadExecutorOptions) {
    this.#interruptPosted = options.interruptPosted ?? (() => false);
    this.#leases =
      options.store && options.lease
        ? new LeaseKeeper({ store: options.store, ...options.lease })
        : undefined;
    this.#emitter = options.emitter;
    this.#store = options.store;
    const llm = options.llm;
    const children = options.builder
      ? new ChildRunner({
          builder: options.builder,
          driver: {
            execute: (thread, run) => this.execute(thread, run),
            resume: async (thread, resume, run) => (await this.start(thread, run, resume)).result,
          },
          emitter: options.emitter,
          ...(options.store ? { store: options.store } : {}),
          ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
          ...(options.mergers ? { mergers: options.mergers } : {}),
        })
      : undefined;
    this.#handlers = { ...defaultHandlers(children), ...options.handlers };
    this.#services = {
      emitter: options.emitter,
      tools: options.tools,
      toolRunner: options.toolRunner,
      ...(options.guardrails ? { guardrails: options.guardrails } : {}),
      ...(children ? { workflowCaller: (ctx) => workflowCaller(ctx, children) } : {}),
      now: options.now ?? options.lease?.now ?? Date.now,
      ...(options.store?.readAttachment
        ? {
            readAttachment: cachedAttachmentReader(
              options.store.readAttachment.bind(options.store),
            ),
          }
        : {}),
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
  async execute(thread: ThreadContext, options: ExecuteOptions = {}): Promise<ThreadResult> {
    return (await this.start(thread, options)).result;
  }

  /**
   * Continues a PAUSED thread with the input it waits for (an answer, or tool approvals), and
   * resolves with its `ThreadResult` (`SkeinEngine.resume` resolves with `{ thread, result }`).
   */
  async resume(
    thread: ThreadContext,
    input: unknown,
    options: ExecuteOptions = {},
  ): Promise<ThreadResult> {
    return (await this.start(thread, options, { input })).result;
  }

  /**
   * Takes the thread and starts its run; resolves as soon as it is taken, with the run's result
   * still to come. Taking it means its lease (a top-level thread on a store: `THREAD_LEASED` when
   * a live process holds it) and, for a resume, the pause: a checkpoint that records the answer
   * and continues the paused one, which the store accepts from one resume only — every other gets
   * `RESUME_CONFLICT` before anything runs. A RUNNING thread whose pause was claimed before a
   * crash goes on with the claimed answer.
   */
  async start(
    thread: ThreadContext,
    options: ExecuteOptions = {},
    resume?: ResumeWith,
    /** Called once the thread is taken, just before its run emits anything (to follow its events). */
    onTaken?: () => void,
  ): Promise<StartedRun> {
    const maxSteps = checkMaxSteps(options);
    if (resume) checkResumable(thread, resume);
    else checkExecutable(thread);
    const threadId = thread.threadId;
    const leases = this.#leases && !thread.state.parent ? this.#leases : undefined;
    const record = thread.record;
    if (record.running)
      throw ThreadError.state(threadId, thread.status, 'another executor is running it');
    record.running = true;
    record.owner = leases?.owner;
    // Before the first save of this thread object, a failed save goes back to how it is now.
    record.lastSaved ??= { state: thread.state, cursor: thread.conversationCursor() };
    let leased = false;
    let unsaved: ThreadResult | undefined;
    try {
      if (leases) {
        await leases.take(threadId).catch((error: unknown) => {
          throw resume && SkeinError.hasCode(error, 'THREAD_LEASED')
            ? resumeConflict(thread, error)
            : error;
        });
        leased = true;
        if (record.takeOver) {
          await checkStillLatest(this.#store!, thread);
          record.takeOver = false;
        }
      }
      if (resume && this.#store) unsaved = await this.#claimPause(thread, resume);
      // A fork is stored before it runs: of two forks racing for one id, the loser runs nothing.
      else if (this.#store && thread.record.forkOf && thread.lastCheckpointId === undefined)
        await saveCheckpoint(this.#store, thread, this.#emitter).catch((error: unknown) => {
          throw saveRefusal(thread, error);
        });
    } catch (error) {
      releaseRun(thread);
      if (leased) await leases!.give(threadId);
      throw error;
    }
    if (unsaved) {
      // The store failed (not a lost race): the thread stays PAUSED for the same answer again.
      releaseRun(thread);
      if (leased) await leases!.give(threadId);
      return { threadId, checkpointId: thread.lastCheckpointId, result: Promise.resolve(unsaved) };
    }
    const answer = resume ?? thread.state.pending?.answer;
    onTaken?.();
    const running = this.#run(thread, options.signal, maxSteps, answer);
    return {
      threadId,
      checkpointId: thread.lastCheckpointId,
      result: leased ? running.finally(() => leases!.give(threadId)) : running,
    };
  }

  /** Whether this executor runs the thread now (it holds its lease). */
  isRunning(threadId: string): boolean {
    return this.#leases?.holds(threadId) ?? false;
  }

  /**
   * Stores the answer with the pause before anything runs: exactly one resume gets it. When the
   * store fails otherwise, the thread stays PAUSED with the error (as a failed save during a run
   * leaves it) and that result comes back.
   */
  async #claimPause(thread: ThreadContext, resume: ResumeWith): Promise<ThreadResult | undefined> {
    const { input, timedOut } = resume;
    const problem = findNonJsonValue(input, 'input');
    if (problem)
      throw ThreadError.resumeInput(
        thread.threadId,
        `the input must be JSON to be stored with the pause: ${problem.path} is ${problem.reason}`,
      );
    const before = thread.state;
    const store = this.#store!;
    thread.dispatch(
      timedOut
        ? { type: 'resume-claimed', input: null, timedOut: true }
        : { type: 'resume-claimed', input: frozenCopy(input) },
    );
    try {
      await saveCheckpoint(store, thread, this.#emitter);
      return undefined;
    } catch (error) {
      const reason = error instanceof SaveFailure ? error.reason : error;
      if (
        SkeinError.hasCode(reason, 'CHECKPOINT_CONFLICT') ||
        SkeinError.hasCode(reason, 'THREAD_LEASED')
      ) {
        thread.dispatch({ type: 'restored', state: before });
        throw resumeConflict(thread, reason);
      }
      return saveFailed(store, thread, this.#emitter, reason, 0);
    }
  }

  /** The loop: pick the node, run it, checkpoint, let the event loop turn now and then. */
  async #run(
    thread: ThreadContext,
    givenSignal: AbortSignal | undefined,
    maxSteps: number,
    resume: ResumeInput | undefined,
  ): Promise<ThreadResult> {
    const run: Run = {
      thread,
      signal: givenSignal,
      maxSteps,
      stopAt: thread.state.parent?.stopAt,
      recovering: thread.status !== 'PENDING',
      steps: 0,
      resume,
      resumedUntil: 0,
      inbox: this.#inboxOf(thread),
    };
    const threadId = thread.threadId;
    const store = this.#store;
    try {
      if (thread.status === 'PENDING')
        this.#emitter.emit('thread:started', {
          threadId,
          workflowId: thread.workflow.id,
          workflowVersion: thread.workflow.version,
        });
      thread.dispatch(RUN_STARTED);
      for (;;) {
        const inbox = run.inbox;
        // A new message interrupts the turn here: what it finished is stored, the next turn takes the message.
        if (inbox && (inbox.interrupted || (inbox.rung && (await inbox.interruptWaits()))))
          return await this.#finish(run, 'CANCELLED', ThreadError.interrupted(threadId));
        const nodeId = thread.state.currentNodeId;
        if (nodeId === undefined) return await this.#finish(run, 'COMPLETED');
        if (nodeId === run.stopAt)
          return await this.#finish(run, 'COMPLETED', undefined, undefined, {
            output: branchOutput(thread, nodeId),
          });
        if (run.signal?.aborted)
          return await this.#finish(run, 'CANCELLED', ThreadError.cancelled(threadId));
        if (run.steps >= maxSteps)
          return await this.#finish(
            run,
            'FAILED',
            ThreadError.maxSteps(threadId, maxSteps, nodeId),
          );
        const node = thread.workflow.nodes.get(nodeId);
        if (!node)
          return await this.#finish(
            run,
            'FAILED',
            ThreadError.stateCorrupt(
              threadId,
              thread.lastCheckpointId,
              'state.currentNodeId',
              `names no node of workflow "${thread.workflow.id}"`,
            ),
          );
        const step = await this.#runNode(run, node);
        if (step.kind === 'refused') {
          if (store) await this.#giveBack(thread);
          throw step.error;
        }
        if (step.kind === 'failed')
          return await this.#finish(
            run,
            step.status,
            step.error,
            step.status === 'FAILED' ? nodeId : undefined,
          );
        run.steps++;
        if (step.kind === 'pause')
          return await pauseThread(
            this.#ending(run),
            nodeId,
            step.pending,
            step.toolFailures,
            step.guarded,
          );
        if (step.kind === 'end') return await this.#finish(run, 'COMPLETED');
        // A branch that reached its JOIN is saved once, as it ends, just below.
        if (store && thread.state.currentNodeId !== run.stopAt) {
          await saveCheckpoint(store, thread, this.#emitter, undefined, this.#clock);
        }
        const now = performance.now();
        if (now >= run.resumedUntil && this.#slice.spent(now)) {
          await yieldToEventLoop();
          run.resumedUntil = performance.now() + RESUMED_MS;
        }
      }
    } catch (error) {
      if (error instanceof SaveFailure)
        return await saveFailed(store!, thread, this.#emitter, error.reason, run.steps);
      // Whatever else went wrong, the thread must not stay RUNNING.
      if (thread.status === 'RUNNING')
        thread.dispatch({
          type: 'finished',
          status: 'FAILED',
          error: {
            code: SkeinError.isInstance(error) ? error.code : 'INTERNAL_ERROR',
            message: error instanceof Error ? error.message : String(error),
          },
        });
      throw error;
    } finally {
      releaseRun(thread);
    }
  }

  /** The inbox of a top-level thread on a store that keeps one (decision 0036). */
  #inboxOf(thread: ThreadContext): RunInbox | undefined {
    const store = this.#store;
    if (thread.state.parent || !store?.pendingMessages) return undefined;
    const threadId = thread.threadId;
    return new RunInbox({ pendingMessages: (id) => store.pendingMessages!(id) }, thread, () =>
      this.#interruptPosted(threadId),
    );
  }

  /**
   * Runs one node's handler and records what it did. A node's effects count only if it
   * completes, its triggers included: on failure or cancellation the thread goes back to how it
   * was when the node started (stored messages stay stored).
   */
  async #runNode(run: Run, node: NodeDefinition): Promise<NodeStep> {
    const { thread } = run;
    const emitter = this.#emitter;
    const step = thread.state.step;
    emitter.emit('node:started', {
      threadId: thread.threadId,
      nodeId: node.id,
      nodeType: node.type,
      step,
    });
    const attempt: Attempt = {
      node,
      step,
      started: performance.now(),
      cursor: thread.conversationCursor(),
      state: thread.state,
    };
    const context = new EngineRunContext(
      thread,
      node,
      run,
      this.#services,
      run.resume,
      run.recovering,
      run.maxSteps,
    );
    run.recovering = false;
    let outcome: NodeOutcome;
    try {
      outcome = await callHandler(this.#handlers, node.type, context);
    } catch (error) {
      return this.#failed(run, attempt, error);
    }
    run.resume = undefined;
    if (outcome.kind === 'pause')
      return {
        kind: 'pause',
        pending: outcome.pending,
        toolFailures: context.toolFailures,
        guarded: context.guarded,
      };
    try {
      completeNode(thread, node.id, step, outcome, context.toolFailures, emitter, context.guarded);
    } catch (error) {
      return this.#failed(run, attempt, error);
    }
    const next = thread.state.currentNodeId;
    emitter.emit('node:completed', {
      threadId: thread.threadId,
      nodeId: node.id,
      nodeType: node.type,
      step,
      durationMs: performance.now() - attempt.started,
      ...(outcome.kind === 'next' && outcome.status ? { status: outcome.status } : {}),
      ...(next ? { nextNodeId: next } : {}),
    });
    return outcome;
  }

  /** Undoes a node that threw and says how the thread ends (or rethrows a bad resume input). */
  #failed(run: Run, attempt: Attempt, error: unknown): NodeStep {
    const thread = run.thread;
    const now = thread.conversationCursor();
    if (now.messages !== attempt.cursor.messages || now.log !== attempt.cursor.log)
      thread.conversation.revertTo(attempt.cursor);
    thread.dispatch({ type: 'restored', state: attempt.state });
    if (run.signal?.aborted)
      return {
        kind: 'failed',
        status: 'CANCELLED',
        error: ThreadError.cancelled(thread.threadId),
      };
    // Invalid resume input leaves the thread paused, answerable, as it was before the claim.
    if (SkeinError.hasCode(error, 'RESUME_INPUT_INVALID')) {
      if (thread.state.pending?.answer) thread.dispatch({ type: 'answer-refused' });
      else thread.dispatch({ type: 'finished', status: 'PAUSED', error: thread.state.error });
      return { kind: 'refused', error };
    }
    const { node, step } = attempt;
    const failure = nodeFailure(error, thread.threadId, node.id, thread.lastCheckpointId);
    emitNodeFailed(this.#emitter, thread, node, step, failure);
    return { kind: 'failed', status: 'FAILED', error: failure };
  }

  /**
   * Stores the pause given back after its claimed answer was refused, so no process goes on with
   * that answer. A store that fails keeps the claim: `recover()` meets the same refusal and gives
   * the pause back then.
   */
  async #giveBack(thread: ThreadContext): Promise<void> {
    try {
      await saveCheckpoint(this.#store!, thread, this.#emitter);
    } catch (error) {
      if (!(error instanceof SaveFailure)) throw error;
    }
  }

  #finish(
    run: Run,
    status: 'COMPLETED' | 'FAILED' | 'CANCELLED',
    error?: SkeinError,
    nodeId?: string,
    branch?: { readonly output: unknown },
  ): Promise<ThreadResult> {
    return finishThread(this.#ending(run), status, error, nodeId, branch);
  }

  #ending(run: Run) {
    return {
      thread: run.thread,
      emitter: this.#emitter,
      store: this.#store,
      steps: run.steps,
      clock: this.#clock,
    };
  }
}
