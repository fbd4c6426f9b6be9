import type {
  BuildThreadOptions,
  ExecuteOptions,
  SkeinEngine,
  ThreadContext,
  ThreadResult,
} from '@skein/core';
import { SkeinError, type TokenUsage } from '@skein/spec';
import type { DatasetItem } from '../input/dataset-input.js';
import { type ItemError, type ItemResult, ZERO_USAGE } from '../output/item-result.js';
import type { RunDatasetOptions } from './run-options.js';

/** How one item went: its result, or nothing when the run was stopped under it. */
export interface ItemOutcome {
  readonly result: ItemResult;
  readonly thread: ThreadContext | undefined;
}

/** The thread of an item: the run id and the item id, so a rerun finds it. */
export function threadIdOf(runId: string, itemId: string): string {
  return `${runId}/${itemId}`;
}

function errorOf(error: unknown): ItemError {
  if (SkeinError.isInstance(error)) {
    const nodeId = (error.details as { nodeId?: unknown }).nodeId;
    return {
      code: error.code,
      message: error.message,
      ...(typeof nodeId === 'string' ? { nodeId } : {}),
    };
  }
  return { code: 'ERROR', message: error instanceof Error ? error.message : String(error) };
}

/** A thread that already ended in the store: its result, without running anything again. */
function storedResult(thread: ThreadContext): Pick<ThreadResult, 'status' | 'output' | 'usage'> & {
  error?: ItemError;
} {
  const state = thread.state;
  return {
    status: thread.status as ThreadResult['status'],
    ...(state.output === undefined ? {} : { output: state.output }),
    usage: thread.conversation.getUsage().total,
    ...(state.error ? { error: { ...state.error } } : {}),
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * One item's result, its fields set one by one in the order of a `results.jsonl` line. Built
 * with spreads (`...base`, `...(error ? { error } : {})`), V8 made objects of this varying shape
 * through a slow path whose allocations reached the old generation: about 1 KB per item of
 * garbage that only a full GC frees, most of a 50,000-item run's old-space growth.
 */
function itemResult(
  item: DatasetItem,
  threadId: string,
  status: ItemResult['status'],
  output: unknown,
  usage: TokenUsage,
  durationMs: number,
  error: ItemError | undefined,
): ItemResult {
  const result: Partial<Mutable<ItemResult>> = { itemId: item.id, threadId };
  if (item.line !== undefined) result.line = item.line;
  result.status = status;
  if (output !== undefined) result.output = output;
  result.usage = usage;
  result.durationMs = durationMs;
  if (error) result.error = error;
  return result as ItemResult;
}

function threadOptionsOf(options: RunDatasetOptions, item: DatasetItem, threadId: string) {
  // Copied, then the id set: a spread followed by more properties takes the slow path (above).
  const thread: Mutable<BuildThreadOptions> = options.threadOptions
    ? { ...options.threadOptions(item.value, item.id) }
    : { input: item.value };
  thread.threadId = threadId;
  return thread;
}

function executeOptions(options: RunDatasetOptions): ExecuteOptions {
  const execute: Mutable<ExecuteOptions> = {};
  if (options.signal) execute.signal = options.signal;
  if (options.maxSteps !== undefined) execute.maxSteps = options.maxSteps;
  return execute;
}

/**
 * Runs one item: a thread the store already holds is picked up from its checkpoint (or just
 * reported, when it had ended), otherwise a new one starts. Never throws: a failure is the
 * item's result. Undefined when the run's signal stopped it: the next run resumes it.
 */
export async function runItem(
  engine: SkeinEngine,
  options: RunDatasetOptions,
  item: DatasetItem,
  stored: boolean,
): Promise<ItemOutcome | undefined> {
  const started = performance.now();
  const threadId = threadIdOf(options.runId, item.id);
  let thread: ThreadContext | undefined;
  try {
    thread = stored
      ? await engine.loadThread(threadId)
      : engine.createThread(options.workflowId, threadOptionsOf(options, item, threadId));
    if (!stored && options.prepareThread) await options.prepareThread(thread, item.value);
    const ended =
      thread.status === 'COMPLETED' || thread.status === 'PAUSED' || thread.status === 'FAILED';
    const outcome = ended
      ? storedResult(thread)
      : await engine.execute(thread, executeOptions(options));
    if (outcome.status === 'CANCELLED' && options.signal?.aborted) return undefined;
    const error =
      'error' in outcome && outcome.error !== undefined
        ? SkeinError.isInstance(outcome.error)
          ? errorOf(outcome.error)
          : (outcome.error as ItemError)
        : undefined;
    const result = itemResult(
      item,
      threadId,
      outcome.status === 'CANCELLED' ? 'FAILED' : outcome.status,
      outcome.status === 'COMPLETED' ? outcome.output : undefined,
      outcome.usage,
      performance.now() - started,
      error,
    );
    return { result, thread };
  } catch (error) {
    if (options.signal?.aborted) return undefined;
    const usage = thread ? thread.conversation.getUsage().total : ZERO_USAGE;
    const durationMs = performance.now() - started;
    return {
      result: itemResult(item, threadId, 'FAILED', undefined, usage, durationMs, errorOf(error)),
      thread,
    };
  }
}
