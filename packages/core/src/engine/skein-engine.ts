import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { TokenCounter, ToolDescriptionFormatter } from '@skein/conversation';
import type { LLMClient } from '@skein/spec';
import {
  CheckpointNotFoundError,
  checkContent,
  checkPrincipal,
  checkThreadId,
  InvalidArgumentError,
  NotFoundError,
  SkeinError,
} from '@skein/spec';
import type { CheckpointStore, StoredThread } from '../checkpoint/checkpoint-store.js';
import { workflowNotFound } from '../errors/not-found.js';
import { SkeinEmitter } from '../events/emitter.js';
import type { ThreadEventListener } from '../events/thread-event.js';
import { ThreadSubscriptions } from '../events/thread-subscriptions.js';
import type { Guardrail } from '../guardrails/guardrail.js';
import { GuardrailRegistry } from '../guardrails/guardrail-registry.js';
import { type ForkChanges, forkThread } from '../history/fork-thread.js';
import {
  type HistoryEntry,
  type HistoryOptions,
  threadHistory,
} from '../history/thread-history.js';
import { saveCheckpoint, saveRefusal } from '../run/checkpointing.js';
import {
  type ExecuteOptions,
  type ResumeWith,
  type StartedRun,
  ThreadExecutor,
  type ThreadExecutorOptions,
  type ThreadResult,
} from '../run/thread-executor.js';
import { resultOf } from '../run/thread-result.js';
import { deliverSignal, type SignalHost, type SignalResult } from '../signals/deliver-signal.js';
import { createWebhook, deliverWebhook, type WebhookDelivery } from '../signals/webhooks.js';
import {
  type BuildThreadOptions,
  type FromCheckpointOptions,
  ThreadBuilder,
} from '../thread/thread-builder.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { type WakeOptions, Waker } from '../time/waker.js';
import { ArgumentValidator } from '../tools/argument-validator.js';
import type { Tool } from '../tools/tool.js';
import { type RegisterOptions, ToolRegistry } from '../tools/tool-registry.js';
import { ToolRunner } from '../tools/tool-runner.js';
import { TIMEOUT_RANGE } from '../tools/tool-timeout.js';
import { checkNumber } from '../util/check-number.js';
import { MigrationRegistry, type WorkflowMigration } from '../versions/migrations.js';
import {
  type UpgradeOptions,
  type UpgradeResult,
  upgradeThreads,
} from '../versions/upgrade-threads.js';
import type { CompiledWorkflow } from '../workflow/compiled-workflow.js';
import type { NodeDefinition, WorkflowDefinition } from '../workflow/types.js';
import { WorkflowRegistry } from '../workflow/workflow-registry.js';
import { type SentMessage, userMessage } from './chat-turn.js';
import type { SendResult } from './posted-result.js';
import { PrincipalEngine } from './principal-engine.js';
import { ThreadTurns, type TurnOptions } from './thread-turns.js';

/** A branch path from the top-level thread, made relative to `thread` (itself maybe a branch). */
function relativePath(thread: ThreadContext, branchPath: string): string {
  const own = thread.state.parent?.branchPath;
  return own && branchPath.startsWith(`${own}/`) ? branchPath.slice(own.length + 1) : branchPath;
}

const DEPTH_RANGE = { min: 1, max: 1_000, integer: true } as const;
// A lease is renewed every third of it by a timer, which cannot wait longer than 2^31 - 1 ms.
const LEASE_RANGE = { min: 3, max: 2 ** 31 - 1, integer: true } as const;

export interface SkeinEngineOptions {
  readonly llm?: LLMClient | ((node: NodeDefinition) => LLMClient);
  readonly store?: CheckpointStore;
  /** Per-call tool time limit when a tool sets none: 1 to 2^31 - 1 ms (default 60 s). */
  readonly toolTimeoutMs?: number;
  readonly formatToolDescription?: ToolDescriptionFormatter;
  readonly tokenCounter?: TokenCounter;
  /**
   * The most bytes one image, audio clip or file of a message may hold, whoever adds it (a sent
   * message, a tool's result, a context operation): more is `INVALID_ARGUMENT` naming the part,
   * nothing stored. Default `DEFAULT_MAX_ATTACHMENT_BYTES` (20 MiB); `Infinity` for none.
   * Messages already stored are not measured again.
   */
  readonly maxAttachmentBytes?: number;
  readonly handlers?: ThreadExecutorOptions['handlers'];
  /** How deep child threads (branches, subworkflows, workflow tools) may nest: 1 to 1,000 (default 8). */
  readonly maxDepth?: number;
  /** Merge functions a JOIN or SUBWORKFLOW can name with `merge: { function: name }`. */
  readonly mergers?: ThreadExecutorOptions['mergers'];
  /**
   * Guardrails by name, for workflows, LLM nodes and tools to name (`guardrails: { input: […] }`);
   * more can be added with `engine.guardrails.register`. See `Guardrail`.
   */
  readonly guardrails?: Readonly<Record<string, Guardrail>>;
  /**
   * Who this engine is in the store's thread leases (default: host, process id and a random
   * part). Engines sharing a store must have different owners.
   */
  readonly owner?: string;
  /**
   * How long a thread's lease lasts unless renewed: 3 to 2^31 - 1 ms (default 30 s). A running
   * thread renews it every third of that; `recover` takes a RUNNING thread only once its lease
   * has expired, so a crash is noticed after at most this long.
   */
  readonly leaseMs?: number;
  /**
   * The clock leases and waits (SLEEP, timeouts) are read from, in epoch ms (default
   * `Date.now`). Tests pass their own and call `wakeDue()`.
   */
  readonly now?: () => number;
}

/** Options of `registerWorkflow`. */
export interface RegisterWorkflowOptions {
  /** Replace a registered workflow of the same id and version. */
  readonly replace?: boolean;
  /**
   * How threads of older versions move to this one (`engine.upgrade`): one migration or several,
   * each `{ from, nodes?, variables? }`. Chains are followed (1 → 2 → 3).
   */
  readonly migrate?: WorkflowMigration | readonly WorkflowMigration[];
}

/** Options of `fork`: what changes at the fork, and how the fork runs. */
export interface ForkOptions extends ForkChanges, ExecuteOptions, FollowOptions {}

/** Options of `run`, `send`, `resume` and `fork` besides how the run goes: who hears its events. */
export interface FollowOptions {
  /**
   * Hears every event of the thread (its branches' included) until this call's result; the same
   * as `subscribe` for the length of the call.
   */
  readonly onEvent?: ThreadEventListener;
}

/** Options of `send`. */
export interface SendOptions extends TurnOptions, FollowOptions {}

/**
 * What every engine call that runs a thread to its end resolves with (`run`, `resume`, `fork`,
 * `send`): the thread, and how its run ended. For `send`, `result` is a `SendResult`: the turn
 * that took the message, or — when no turn of this engine took it — the message posted to the
 * thread's inbox (`result.posted`). The calls that resolve as soon as the run has taken its
 * thread (`claimResume`, `wake`, `wakeDue`, `recover`) give a `StartedRun`, whose `result` is
 * this `result` to come.
 */
export interface RunOutcome<Result extends SendResult = ThreadResult> {
  readonly thread: ThreadContext;
  readonly result: Result;
}

/**
 * One engine: its own tool and workflow registries, event emitter, thread builder and executor.
 * Nothing is global, so two engines in one process never see each other's tools or threads.
 */
export class SkeinEngine {
  readonly events = new SkeinEmitter();
  readonly tools = new ToolRegistry();
  /** Guardrails workflows, LLM nodes and tools name (`SkeinEngineOptions.guardrails`). */
  readonly guardrails: GuardrailRegistry;
  readonly workflows: WorkflowRegistry;
  readonly #builder: ThreadBuilder;
  readonly #executor: ThreadExecutor;
  readonly store: CheckpointStore | undefined;
  /** Who this engine is in the store's thread leases. */
  readonly owner: string;
  readonly #subscriptions = new ThreadSubscriptions(this.events);
  readonly #migrations = new MigrationRegistry();
  readonly #now: () => number;
  /** What a sent message's parts are checked with (its attachments' size limit). */
  readonly #contentOptions: { readonly maxAttachmentBytes?: number };
  /** Wakes waiting threads (a store is where wakes live: none without one). */
  readonly #waker: Waker | undefined;
  readonly #turns: ThreadTurns;

  constructor(options: SkeinEngineOptions = {}) {
    this.guardrails = new GuardrailRegistry(options.guardrails);
    this.workflows = new WorkflowRegistry({ tools: this.tools, guardrails: this.guardrails });
    this.store = options.store;
    if (options.owner !== undefined && (typeof options.owner !== 'string' || options.owner === ''))
      throw new InvalidArgumentError('owner', 'owner must be a non-empty string');
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID()}`;
    this.#now = options.now ?? Date.now;
    this.#contentOptions =
      options.maxAttachmentBytes === undefined
        ? {}
        : { maxAttachmentBytes: options.maxAttachmentBytes };
    // Checked now (checkContent refuses a limit that is no whole number of bytes), not at the
    // first message that holds an attachment.
    checkContent([], 'message.content', this.#contentOptions);
    const store = options.store;
    this.#turns = new ThreadTurns({
      load: (threadId) => this.getThread(threadId),
      create: (workflowId, build) => this.createThread(workflowId, build),
      start: (thread, run, resume) => this.#start(thread, run, resume),
      inbox:
        store?.postMessage && store.pendingMessages
          ? {
              postMessage: (threadId, post) => store.postMessage!(threadId, post),
              pendingMessages: (threadId) => store.pendingMessages!(threadId),
            }
          : undefined,
    });
    const leaseMs =
      options.leaseMs === undefined ? 30_000 : checkNumber('leaseMs', options.leaseMs, LEASE_RANGE);
    this.#builder = new ThreadBuilder({
      workflows: this.workflows,
      tools: this.tools,
      emitter: this.events,
      ...(options.formatToolDescription
        ? { formatToolDescription: options.formatToolDescription }
        : {}),
      ...(options.tokenCounter ? { tokenCounter: options.tokenCounter } : {}),
      ...(options.maxAttachmentBytes === undefined
        ? {}
        : { maxAttachmentBytes: options.maxAttachmentBytes }),
    });
    const toolRunner = new ToolRunner({
      validator: new ArgumentValidator(),
      emitter: this.events,
      ...(options.toolTimeoutMs === undefined
        ? {}
        : { defaultTimeoutMs: checkNumber('toolTimeoutMs', options.toolTimeoutMs, TIMEOUT_RANGE) }),
    });
    this.#executor = new ThreadExecutor({
      tools: this.tools,
      toolRunner,
      emitter: this.events,
      ...(options.llm ? { llm: options.llm } : {}),
      ...(options.store ? { store: options.store } : {}),
      ...(options.handlers ? { handlers: options.handlers } : {}),
      builder: this.#builder,
      ...(options.maxDepth === undefined
        ? {}
        : { maxDepth: checkNumber('maxDepth', options.maxDepth, DEPTH_RANGE) }),
      ...(options.mergers ? { mergers: options.mergers } : {}),
      guardrails: this.guardrails,
      lease: { owner: this.owner, leaseMs, now: this.#now },
      now: this.#now,
      interruptPosted: (threadId) => this.#turns.interruptPosted(threadId),
    });
    this.#waker = options.store
      ? new Waker({ ...this.#signalHost(options.store), now: this.#now })
      : undefined;
  }

  /** What waking and signalling threads use of the engine. */
  #signalHost(store: CheckpointStore): SignalHost {
    return {
      store,
      load: (threadId) => this.getThread(threadId),
      start: (thread, resume, options) => {
        const run: ExecuteOptions = {
          ...(options?.signal ? { signal: options.signal } : {}),
          ...(options?.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        };
        return this.#start(thread, run, resume);
      },
      warn: (warning) => this.events.emit('warning', warning),
    };
  }

  #requireStore(what: string): CheckpointStore {
    if (!this.store)
      throw new SkeinError('NO_STORE', `${what} needs a store: pass \`store\` to the engine`);
    return this.store;
  }

  registerTool(tool: Tool<never>, options?: RegisterOptions): this {
    this.tools.register(tool, options);
    return this;
  }

  registerTools(tools: readonly Tool<never>[], options?: RegisterOptions): this {
    this.tools.registerMany(tools, options);
    return this;
  }

  /**
   * Validates and registers a workflow version. Threads keep the version they started on while
   * it stays registered; `migrate` says how threads of older versions move to this one.
   */
  registerWorkflow(
    definition: WorkflowDefinition,
    options: RegisterWorkflowOptions = {},
  ): CompiledWorkflow {
    const { migrate, ...register } = options;
    // The migration is checked first, so a bad one registers nothing.
    const probe = new MigrationRegistry();
    if (migrate !== undefined) probe.add(definition?.id, definition?.version, migrate);
    const compiled = this.workflows.register(definition, register);
    if (migrate !== undefined) this.#migrations.add(compiled.id, compiled.version, migrate);
    return compiled;
  }

  createThread(workflowId: string, options?: BuildThreadOptions): ThreadContext {
    return this.#builder.build(workflowId, options);
  }

  /**
   * Continues a PAUSED thread with the input it waits for (an answer, tool approvals, or
   * `{ branch, input }`) and resolves with `{ thread, result }`, like `run`, `send` and `fork`.
   * `thread` is the thread or its id: an id is loaded from the store (`loadThread`; an unknown
   * one rejects with `CHECKPOINT_NOT_FOUND`). `ThreadExecutor.resume` returns the result alone.
   */
  async resume(
    thread: ThreadContext | string,
    input: unknown,
    options: ExecuteOptions & FollowOptions = {},
  ): Promise<RunOutcome> {
    const resumed = typeof thread === 'string' ? await this.loadThread(thread) : thread;
    return {
      thread: resumed,
      result: await (await this.#start(resumed, options, { input })).result,
    };
  }

  /**
   * Sends a user message to a thread and runs it on: a new thread of `options.workflowId`
   * (default `chat`, see `chatWorkflow`) under `threadId`, the answer a thread PAUSED for input
   * waits for, or the next turn of a thread that ended (it runs again from its START, with its
   * conversation, batches and checkpoints). A message sent while the thread runs in this engine
   * waits for the run to end and is taken by the next turn. Needs a store: the thread is found
   * by id there.
   */
  async send(
    threadId: string,
    message: SentMessage,
    options: SendOptions = {},
  ): Promise<RunOutcome<SendResult>> {
    return this.#send(threadId, message, options, undefined);
  }

  /** `send`, for everyone (`principal` undefined) or as a principal's view sends. */
  async #send(
    threadId: string,
    message: SentMessage,
    options: SendOptions,
    principal: string | undefined,
  ): Promise<RunOutcome<SendResult>> {
    checkThreadId(threadId);
    const user = userMessage(message, 'message', this.#contentOptions);
    if (!this.store)
      throw new SkeinError(
        'NO_STORE',
        'send finds threads by id in the store: pass `store` to the engine (InMemoryCheckpointStore for a demo)',
      );
    const { onEvent, ...turn } = options;
    let unsubscribe: (() => void) | undefined;
    // A message that waits hears the thread from its own `message:added` on: the turn that takes
    // it (or, steered, the rest of the running one), not the turn it waited for.
    let waitsAs: string | undefined;
    const heard: ThreadEventListener | undefined =
      onEvent &&
      ((event) => {
        if (waitsAs !== undefined) {
          if (event.type !== 'message:added' || event.message.metadata?.inboxId !== waitsAs) return;
          waitsAs = undefined;
        }
        onEvent(event);
      });
    const follow = () => {
      if (heard && !unsubscribe) unsubscribe = this.subscribe(threadId, heard);
    };
    // A principal's send hears the thread once a turn has found it to be the principal's; any
    // other from the call on (a message that waits, from its own `message:added` on).
    if (principal === undefined) follow();
    try {
      return await this.#turns.send(
        threadId,
        user,
        turn,
        principal === undefined ? undefined : { principal, onTaken: follow },
        (messageId) => {
          waitsAs = messageId;
        },
      );
    } finally {
      unsubscribe?.();
    }
  }

  /**
   * Resolves once this engine neither runs `threadId` nor is about to start its next turn (the
   * messages its runs left in the thread's inbox taken by the turns after). What a worker awaits
   * before it lets go of a thread it ran.
   */
  idle(threadId: string): Promise<void> {
    checkThreadId(threadId);
    return this.#turns.idle(threadId);
  }

  /**
   * Calls `listener` with every event of `threadId` (and of its branches and child threads), each
   * with its name in `type`, until the returned function is called.
   */
  subscribe(threadId: string, listener: ThreadEventListener): () => void {
    checkThreadId(threadId);
    if (typeof listener !== 'function')
      throw new InvalidArgumentError('listener', 'listener must be a function');
    return this.#subscriptions.subscribe(threadId, listener);
  }

  /** The stored thread rebuilt from its latest checkpoint, or undefined when there is none. */
  async getThread(threadId: string): Promise<ThreadContext | undefined> {
    checkThreadId(threadId);
    if (!this.store) return undefined;
    const stored = await this.store.load(threadId);
    return stored ? this.#build(stored) : undefined;
  }

  /**
   * The bytes of an attachment a message of `threadId` refers to (a media part's `ref.digest`),
   * read from the store (decision 0033); undefined when no message of the thread (nor of what a
   * fork continues) refers to it, when there is no such thread, or when the store keeps media
   * inline. What a page showing a stored chat or an image reads.
   */
  async readAttachment(threadId: string, digest: string): Promise<Uint8Array | undefined> {
    checkThreadId(threadId);
    if (typeof digest !== 'string')
      throw new InvalidArgumentError('digest', `digest must be a string, got ${typeof digest}`);
    return this.store?.readAttachment?.(threadId, digest);
  }

  /**
   * Rebuilds a stored thread. A thread whose version is no longer registered stays the typed
   * `WORKFLOW_NOT_FOUND`, naming the upgrade its workflow's migrations offer.
   */
  #build(stored: StoredThread, options?: FromCheckpointOptions): ThreadContext {
    try {
      return this.#builder.fromCheckpoint(stored, options);
    } catch (error) {
      const { workflowId, workflowVersion, threadId } = stored.state;
      if (!NotFoundError.hasCode(error, 'WORKFLOW_NOT_FOUND') || !this.workflows.has(workflowId))
        throw error;
      const to = this.#migrations
        .reachableFrom(workflowId, workflowVersion)
        .filter((v) => this.workflows.has(workflowId, v))
        .at(-1);
      const known = this.workflows
        .list()
        .flatMap(({ id, versions }) => versions.map((v) => `${id}@${v}`));
      throw workflowNotFound(
        workflowId,
        workflowVersion,
        known,
        to ? { threadId, toVersion: to } : undefined,
      );
    }
  }

  /**
   * Starts a run and keeps its thread busy until it ends (messages sent meanwhile wait). `onEvent`
   * hears the run from the moment the thread is taken: a resume that loses the claim to another
   * hears nothing of the winner's run.
   */
  async #start(
    thread: ThreadContext,
    options: ExecuteOptions & FollowOptions = {},
    resume?: ResumeWith,
  ): Promise<StartedRun> {
    const { onEvent } = options;
    let unsubscribe: (() => void) | undefined;
    const follow = onEvent
      ? () => {
          unsubscribe = this.subscribe(thread.threadId, onEvent);
        }
      : undefined;
    let started: StartedRun;
    try {
      started = await this.#executor.start(thread, options, resume, follow);
    } catch (error) {
      unsubscribe?.();
      throw error;
    }
    let result = unsubscribe ? started.result.finally(unsubscribe) : started.result;
    if (thread.state.parent) return { ...started, result };
    const waker = this.#waker;
    if (waker)
      result = result.then((ended) => {
        waker.track(thread, ended);
        return ended;
      });
    return { ...started, result: this.#turns.track(thread, result) };
  }

  /**
   * Claims a PAUSED thread's pause with `input` and lets the run go on: resolves once the claim
   * is stored (`result` is the run's end), or rejects with `RESUME_CONFLICT` when another resume
   * claimed it first, before anything ran. What an HTTP handler answers 202 or 409 with;
   * `onEvent` follows the run it started from its first event. `thread` is the thread or its id
   * (loaded from the store, as `resume` does).
   */
  async claimResume(
    thread: ThreadContext | string,
    input: unknown,
    options?: ExecuteOptions & FollowOptions,
  ): Promise<StartedRun> {
    const claimed = typeof thread === 'string' ? await this.loadThread(thread) : thread;
    return this.#start(claimed, options, { input });
  }

  /**
   * Runs on every top-level thread that a dead process left RUNNING: those whose lease has
   * expired (a live process renews its own, so its threads are never taken). Each is taken under
   * this engine's lease and goes on from its last checkpoint (a claimed resume with its claimed
   * answer). Then it wakes the stored waits whose time has passed (`wakeDue`) and schedules this
   * engine's timers for the others. Resolves once they are taken, with their runs still going;
   * call it at start-up, and again now and then if other processes may die.
   */
  async recover(options?: ExecuteOptions): Promise<StartedRun[]> {
    const store = this.#requireStore('recover');
    const started: StartedRun[] = [];
    for (const info of await store.listThreads()) {
      if (info.status !== 'RUNNING' || this.#executor.isRunning(info.threadId)) continue;
      const thread = await this.loadThread(info.threadId);
      // A branch or child thread goes on when its top-level thread does.
      if (thread.state.parent || thread.status !== 'RUNNING') continue;
      thread.record.takeOver = true;
      try {
        started.push(await this.#start(thread, options));
      } catch (error) {
        // A live process holds it, or another recover took it first.
        if (SkeinError.hasCode(error, 'THREAD_LEASED')) continue;
        throw error;
      }
    }
    // Then the waits whose time came while no process watched, and timers for the rest.
    started.push(...(await this.#waker!.wakeDue()));
    return started;
  }

  /**
   * Runs a thread until it ends, pauses or fails, and resolves with `{ thread, result }` (as
   * `send`, `resume` and `fork` do): a new thread of `workflowId`, built with `options` as
   * `createThread` builds it; or `thread` from its current node — one `createThread` built, or a
   * stored one (`loadThread`) that failed, was cancelled or was rebuilt, to go on.
   */
  run(
    workflowId: string,
    options?: BuildThreadOptions & ExecuteOptions & FollowOptions,
  ): Promise<RunOutcome>;
  /** Runs `thread` from its current node: one `createThread` built, or a stored one to go on. */
  run(thread: ThreadContext, options?: ExecuteOptions & FollowOptions): Promise<RunOutcome>;
  async run(
    target: string | ThreadContext,
    options: BuildThreadOptions & ExecuteOptions & FollowOptions = {},
  ): Promise<RunOutcome> {
    const thread = typeof target === 'string' ? this.createThread(target, options) : target;
    return { thread, result: await (await this.#start(thread, options)).result };
  }

  /**
   * A stored thread with every branch and child thread under it (at any depth), each rebuilt from
   * its latest checkpoint, in branch-path order: what a transcript of the whole run is made from.
   */
  async loadThreadTree(
    threadId: string,
  ): Promise<{ thread: ThreadContext; branches: { path: string; thread: ThreadContext }[] }> {
    const thread = await this.loadThread(threadId);
    const prefix = `${threadId}/`;
    const ids = (await this.store!.listThreads())
      .map((t) => t.threadId)
      .filter((id) => id.startsWith(prefix));
    const branches: { path: string; thread: ThreadContext }[] = [];
    for (const id of ids) {
      const child = await this.loadThread(id);
      const link = child.state.parent;
      if (!link) continue;
      branches.push({ path: relativePath(thread, link.branchPath), thread: child });
    }
    branches.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
    return { thread, branches };
  }

  /** Rebuilds a stored thread from the engine's store (its latest checkpoint, or the one named). */
  async loadThread(
    threadId: string,
    checkpointId?: string,
    options?: FromCheckpointOptions,
  ): Promise<ThreadContext> {
    checkThreadId(threadId);
    if (!this.store) throw new CheckpointNotFoundError(threadId, checkpointId);
    const stored = await this.store.load(threadId, checkpointId);
    if (!stored) throw new CheckpointNotFoundError(threadId, checkpointId);
    return this.#build(stored, options);
  }

  /**
   * Wakes every stored thread whose time has come — a SLEEP's, or the deadline of a wait with a
   * `timeout` — exactly once across every engine on the store, and schedules this engine's
   * timers for the later ones. Resolves with the runs it started, going on. `recover()` calls
   * it; call it yourself with an injected clock, or from a scheduler.
   */
  wakeDue(): Promise<StartedRun[]> {
    this.#requireStore('wakeDue');
    return this.#waker!.wakeDue();
  }

  /**
   * Wakes one thread if its stored wake (a SLEEP's time, a wait's deadline) has come: claimed
   * exactly once, like `wakeDue` does for every thread. Resolves with the run it started, or
   * undefined when there is nothing to wake (not due by this engine's clock, no wake, or another
   * engine claimed it first). What a scheduler's job for one thread calls (`@skein/worker`):
   * given a loaded thread (prepared as the job needs), it wakes that one, under `signal`;
   * `early` ends a WAITING thread's wait now, due or not (a cancelled job, its signal aborted).
   */
  wake(thread: ThreadContext | string, options: WakeOptions = {}): Promise<StartedRun | undefined> {
    if (typeof thread === 'string') checkThreadId(thread);
    this.#requireStore('wake');
    return this.#waker!.fire(thread, options);
  }

  /** Whether this engine runs `threadId` now (a run of another process is not seen here). */
  isRunning(threadId: string): boolean {
    checkThreadId(threadId);
    return this.#executor.isRunning(threadId);
  }

  /**
   * Delivers an outside event to every thread WAITING for `name` at a WAIT_FOR_EVENT whose
   * `match` holds, exactly once per thread (claimed like a resume), and says which took it. An
   * event nobody waits for is reported (`delivered: []`, a `warning` `EVENT_UNDELIVERED`) and
   * not kept for later waits.
   */
  signal(name: string, payload: unknown = null): Promise<SignalResult> {
    return deliverSignal(this.#signalHost(this.#requireStore('signal')), name, payload);
  }

  /**
   * A webhook token for a thread WAITING at a WAIT_FOR_EVENT: unguessable (256 random bits),
   * stored only as a hash with the wait, so it survives restarts. Mount `webhookHandler(engine)` (`@skein/http`)
   * on a public route; a call with the token is the thread's event, delivered once.
   */
  createWebhook(threadId: string): Promise<string> {
    checkThreadId(threadId);
    const store = this.#requireStore('createWebhook');
    return createWebhook({ ...this.#signalHost(store), emitter: this.events }, threadId);
  }

  /** What `webhookHandler` calls: the event of the thread `token` was made for. */
  deliverWebhook(token: string, payload: unknown): Promise<WebhookDelivery> {
    return deliverWebhook(this.#signalHost(this.#requireStore('deliverWebhook')), token, payload);
  }

  /** The stored checkpoints of a thread, oldest first, with what changed at each. */
  history(threadId: string, options?: HistoryOptions): Promise<HistoryEntry[]> {
    return this.#history(threadId, options, undefined);
  }

  #history(
    threadId: string,
    options: HistoryOptions | undefined,
    principal: string | undefined,
  ): Promise<HistoryEntry[]> {
    checkThreadId(threadId);
    return threadHistory(this.#requireStore('history'), threadId, options, principal);
  }

  /**
   * A new thread from a stored checkpoint of `threadId` (`at`, default its latest): its state and
   * conversation up to there (batches included, nothing after), `forkedFrom` linking it back,
   * with `variables` and `messages` changed. It is stored at once, then runs on — or stays
   * PAUSED / WAITING (woken as any other) / ended, as the checkpoint was.
   */
  fork(threadId: string, options: ForkOptions = {}): Promise<RunOutcome> {
    return this.#fork(threadId, options, undefined);
  }

  async #fork(
    threadId: string,
    options: ForkOptions,
    principal: string | undefined,
  ): Promise<RunOutcome> {
    checkThreadId(threadId);
    const store = this.#requireStore('fork');
    const { at, threadId: newId, variables, messages, dynamicTools, ...run } = options;
    const changes = {
      ...(at === undefined ? {} : { at }),
      ...(newId === undefined ? {} : { threadId: newId }),
      ...(variables === undefined ? {} : { variables }),
      ...(messages === undefined ? {} : { messages }),
      ...(dynamicTools === undefined ? {} : { dynamicTools }),
    };
    const thread = await forkThread(store, this.#builder, threadId, changes, principal);
    const status = thread.status;
    if (status === 'PAUSED' || status === 'WAITING' || status === 'COMPLETED') {
      await saveCheckpoint(store, thread, this.events).catch((error: unknown) => {
        throw saveRefusal(thread, error);
      });
      const result = resultOf(thread, status, 0);
      this.#waker?.track(thread, result);
      return { thread, result };
    }
    return { thread, result: await (await this.#start(thread, run)).result };
  }

  /**
   * Moves stored threads (one by id, or `'all'` of every workflow that has `toVersion`) to
   * `toVersion` along the migrations given to `registerWorkflow`. Every thread is checked first —
   * the node it is at or waits at must exist in the new version, the migrated variables must
   * match its schema — and any problem refuses the whole upgrade with `ThreadError`
   * `UPGRADE_REFUSED` listing them all; nothing changes then.
   */
  upgrade(
    threadId: string | 'all',
    toVersion: string,
    options?: UpgradeOptions,
  ): Promise<UpgradeResult> {
    return upgradeThreads(
      {
        store: this.#requireStore('upgrade'),
        builder: this.#builder,
        workflows: this.workflows,
        migrations: this.#migrations,
        emitter: this.events,
      },
      threadId,
      toVersion,
      options,
    );
  }

  /**
   * The engine as `principal` (a user id, a token's subject) sees it: the same methods, where a
   * new thread is built for the principal and a thread of another principal, or of none, is
   * exactly an unknown one (`getThread` undefined, `CHECKPOINT_NOT_FOUND` elsewhere). What an
   * HTTP handler calls with the caller its `authorize` hook named. The engine itself stays
   * everyone's: it reaches every thread, as the app's own code (recovery, workers) needs.
   */
  forPrincipal(principal: string): PrincipalEngine {
    return new PrincipalEngine(this, checkPrincipal(principal), {
      send: (threadId, message, options) => this.#send(threadId, message, options, principal),
      fork: (threadId, options) => this.#fork(threadId, options, principal),
      history: (threadId, options) => this.#history(threadId, options, principal),
    });
  }

  /** Stops this engine's wake timers (the wakes stay in the store for the next `recover`). */
  close(): void {
    this.#waker?.close();
  }
}
