import type { TokenCounter, ToolDescriptionFormatter } from '@skein/conversation';
import { CheckpointNotFoundError } from '@skein/spec';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { SkeinEmitter } from '../events/emitter.js';
import {
  type ExecuteOptions,
  ThreadExecutor,
  type ThreadExecutorOptions,
  type ThreadResult,
} from '../executor/thread-executor.js';
import type { LLMClient } from '../llm/llm-client.js';
import { checkNumber } from '../options/check-number.js';
import {
  type BuildThreadOptions,
  type FromCheckpointOptions,
  ThreadBuilder,
} from '../thread/thread-builder.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { ArgumentValidator } from '../tools/argument-validator.js';
import type { Tool } from '../tools/tool.js';
import { type RegisterOptions, ToolRegistry } from '../tools/tool-registry.js';
import { ToolRunner } from '../tools/tool-runner.js';
import { TIMEOUT_RANGE } from '../tools/tool-timeout.js';
import type { CompiledWorkflow } from '../workflow/compiled-workflow.js';
import type { NodeDefinition, WorkflowDefinition } from '../workflow/types.js';
import { WorkflowRegistry } from '../workflow/workflow-registry.js';

/** A branch path from the top-level thread, made relative to `thread` (itself maybe a branch). */
function relativePath(thread: ThreadContext, branchPath: string): string {
  const own = thread.state.parent?.branchPath;
  return own && branchPath.startsWith(`${own}/`) ? branchPath.slice(own.length + 1) : branchPath;
}

const DEPTH_RANGE = { min: 1, max: 1_000, integer: true } as const;

export interface SkeinEngineOptions {
  readonly llm?: LLMClient | ((node: NodeDefinition) => LLMClient);
  readonly store?: CheckpointStore;
  /** Per-call tool time limit when a tool sets none: 1 to 2^31 - 1 ms (default 60 s). */
  readonly toolTimeoutMs?: number;
  readonly formatToolDescription?: ToolDescriptionFormatter;
  readonly tokenCounter?: TokenCounter;
  readonly handlers?: ThreadExecutorOptions['handlers'];
  /** How deep child threads (branches, subworkflows, workflow tools) may nest: 1 to 1,000 (default 8). */
  readonly maxDepth?: number;
  /** Merge functions a JOIN or SUBWORKFLOW can name with `merge: { function: name }`. */
  readonly mergers?: ThreadExecutorOptions['mergers'];
}

/**
 * One engine: its own tool and workflow registries, event emitter, thread builder and executor.
 * Nothing is global, so two engines in one process never see each other's tools or threads.
 */
export class SkeinEngine {
  readonly events = new SkeinEmitter();
  readonly tools = new ToolRegistry();
  readonly workflows = new WorkflowRegistry({ tools: this.tools });
  readonly builder: ThreadBuilder;
  readonly executor: ThreadExecutor;
  readonly store: CheckpointStore | undefined;

  constructor(options: SkeinEngineOptions = {}) {
    this.store = options.store;
    this.builder = new ThreadBuilder({
      workflows: this.workflows,
      tools: this.tools,
      emitter: this.events,
      ...(options.formatToolDescription
        ? { formatToolDescription: options.formatToolDescription }
        : {}),
      ...(options.tokenCounter ? { tokenCounter: options.tokenCounter } : {}),
    });
    const toolRunner = new ToolRunner({
      validator: new ArgumentValidator(),
      emitter: this.events,
      ...(options.toolTimeoutMs === undefined
        ? {}
        : { defaultTimeoutMs: checkNumber('toolTimeoutMs', options.toolTimeoutMs, TIMEOUT_RANGE) }),
    });
    this.executor = new ThreadExecutor({
      tools: this.tools,
      toolRunner,
      emitter: this.events,
      ...(options.llm ? { llm: options.llm } : {}),
      ...(options.store ? { store: options.store } : {}),
      ...(options.handlers ? { handlers: options.handlers } : {}),
      builder: this.builder,
      ...(options.maxDepth === undefined
        ? {}
        : { maxDepth: checkNumber('maxDepth', options.maxDepth, DEPTH_RANGE) }),
      ...(options.mergers ? { mergers: options.mergers } : {}),
    });
  }

  registerTool(tool: Tool<never>, options?: RegisterOptions): this {
    this.tools.register(tool, options);
    return this;
  }

  registerTools(tools: readonly Tool<never>[], options?: RegisterOptions): this {
    this.tools.registerMany(tools, options);
    return this;
  }

  registerWorkflow(
    definition: WorkflowDefinition,
    options?: { replace?: boolean },
  ): CompiledWorkflow {
    return this.workflows.register(definition, options);
  }

  createThread(workflowId: string, options?: BuildThreadOptions): ThreadContext {
    return this.builder.build(workflowId, options);
  }

  execute(thread: ThreadContext, options?: ExecuteOptions): Promise<ThreadResult> {
    return this.executor.execute(thread, options);
  }

  resume(thread: ThreadContext, input: unknown, options?: ExecuteOptions): Promise<ThreadResult> {
    return this.executor.resume(thread, input, options);
  }

  /** Builds a thread and runs it: `{ thread, result }`. */
  async run(
    workflowId: string,
    options: BuildThreadOptions & ExecuteOptions = {},
  ): Promise<{ thread: ThreadContext; result: ThreadResult }> {
    const thread = this.createThread(workflowId, options);
    const result = await this.execute(thread, options);
    return { thread, result };
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
    if (!this.store) throw new CheckpointNotFoundError(threadId, checkpointId);
    const stored = await this.store.load(threadId, checkpointId);
    if (!stored) throw new CheckpointNotFoundError(threadId, checkpointId);
    return this.builder.fromCheckpoint(stored, options);
  }
}
