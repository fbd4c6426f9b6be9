import type {
  BuildThreadOptions,
  ExecuteOptions,
  SkeinEngine,
  ThreadContext,
  ThreadResult,
} from '@skein/core';
import { SkeinError, type TokenUsage } from '@skein/spec';
import type { DatasetItem } from '../input/dataset-input.js';
import { sleep } from '../limits/sleep.js';
import { type ItemError, type ItemResult, threadIdOf, ZERO_USAGE } from '../output/item-result.js';
import type { RunDatasetOptions } from './run-options.js';

/** How one item went: its result, or nothing when the run was stopped under it. */
export interface ItemOutcome {
  readonly result: ItemResult;
  readonly thread: ThreadContext | undefined;
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
    usage: thread.conversation.getTotalUsage(),
    ...(state.error ? { error: { ...state.error } } : {}),
  };
}

/** One item's result, its fields in the order of a `results.jsonl` line. */
function itemResult(
  item: DatasetItem,
  threadId: string,
  status: ItemResult['status'],
  output: unknown,
  usage: TokenUsage,
  durationMs: number,
  error: ItemError | undefined,
): ItemResult {
  return {
    itemId: item.id,
    threadId,
    ...(item.line === undefined ? {} : { line: item.line }),
    status,
    ...(output === undefined ? {} : { output }),
    usage,
    durationMs,
    ...(error ? { error } : {}),
  };
}

/** The thread's options: what the caller's `threadOptions` gives, under the item's thread id. */
function threadOptionsOf(
  options: RunDatasetOptions,
  item: DatasetItem,
  threadId: string,
): BuildThreadOptions {
  if (!options.threadOptions) return { input: item.value, threadId };
  return { ...options.threadOptions(item.value, item.id), threadId };
}

function executeOptions(options: RunDatasetOptions): ExecuteOptions {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
  };
}

/** What an item's thread ended with, as its result line (or undefined: the run was stopped). */
function finished(
  options: RunDatasetOptions,
  item: DatasetItem,
  threadId: string,
  thread: ThreadContext,
  outcome: Pick<ThreadResult, 'status' | 'output' | 'usage'> & { error?: unknown },
  started: number,
): ItemOutcome | undefined {
  if (outcome.status === 'CANCELLED' && options.signal?.aborted) return undefined;
  const error =
    outcome.error !== undefined
      ? SkeinError.isInstance(outcome.error)
        ? errorOf(outcome.error)
        : (outcome.error as ItemError)
      : undefined;
  const result = itemResult(
    item,
    threadId,
    // A dataset item asleep or waiting for an event is not done: reported as PAUSED.
    outcome.status === 'CANCELLED'
      ? 'FAILED'
      : outcome.status === 'WAITING'
        ? 'PAUSED'
        : outcome.status,
    outcome.status === 'COMPLETED' ? outcome.output : undefined,
    outcome.usage,
    performance.now() - started,
    error,
  );
  return { result, thread };
}

/** An item whose thread could not be built or run: FAILED with the error (or undefined: stopped). */
function failed(
  options: RunDatasetOptions,
  item: DatasetItem,
  threadId: string,
  thread: ThreadContext | undefined,
  error: unknown,
  started: number,
): ItemOutcome | undefined {
  if (options.signal?.aborted) return undefined;
  const usage = thread ? thread.conversation.getTotalUsage() : ZERO_USAGE;
  const durationMs = performance.now() - started;
  return {
    result: itemResult(item, threadId, 'FAILED', undefined, usage, durationMs, errorOf(error)),
    thread,
  };
}

/** A thread found in the store, or one with a `prepareThread` hook: the paths that wait first. */
async function runAfterWaiting(
  engine: SkeinEngine,
  options: RunDatasetOptions,
  item: DatasetItem,
  stored: boolean,
  threadId: string,
  started: number,
): Promise<ItemOutcome | undefined> {
  let thread: ThreadContext | undefined;
  try {
    thread = stored ? await engine.getThread(threadId) : undefined;
    if (thread === undefined) {
      thread = engine.createThread(options.workflowId, threadOptionsOf(options, item, threadId));
      if (options.prepareThread) await options.prepareThread(thread, item.value);
    }
    const ended =
      thread.status === 'COMPLETED' || thread.status === 'PAUSED' || thread.status === 'FAILED';
    const outcome = ended
      ? storedResult(thread)
      : (await engine.run(thread, executeOptions(options))).result;
    return finished(options, item, threadId, thread, outcome, started);
  } catch (error) {
    if (takenElsewhere(error)) return afterLease(engine, options, item, threadId, started);
    return failed(options, item, threadId, thread, error, started);
  }
}

/** How often an item whose thread another process holds looks again. */
const LEASE_POLL_MS = 1_000;

/**
 * The thread is held by another process (its store lease, `THREAD_LEASED`) or was saved by one
 * meanwhile (`CHECKPOINT_CONFLICT`): after a crash, the lease of the process that died lasts
 * until it expires. Not the item's failure: recorded as FAILED, it would be skipped by every
 * later run.
 */
function takenElsewhere(error: unknown): boolean {
  return (
    SkeinError.hasCode(error, 'THREAD_LEASED') || SkeinError.hasCode(error, 'CHECKPOINT_CONFLICT')
  );
}

/**
 * Waits, then picks the thread up from the store again: it runs once the other process's lease
 * has expired, or is reported as it ended there. Undefined when the run is stopped meanwhile.
 */
async function afterLease(
  engine: SkeinEngine,
  options: RunDatasetOptions,
  item: DatasetItem,
  threadId: string,
  started: number,
): Promise<ItemOutcome | undefined> {
  try {
    await sleep(LEASE_POLL_MS, options.signal);
  } catch {
    return undefined;
  }
  return runAfterWaiting(engine, options, item, true, threadId, started);
}

/**
 * Runs one item: a thread the store already holds is picked up from its checkpoint (or just
 * reported, when it had ended), otherwise a new one starts. Never rejects: a failure is the
 * item's result, except a thread held by another process (a crashed one holds it until its lease
 * expires): the item waits for it. Undefined when the run's signal stopped it: the next run
 * resumes it.
 *
 * A new item is not an `async` function: what stays alive while its thread runs is two small
 * closures, not an async frame of some 550 bytes. At concurrency 64 an item outlives several
 * young-generation collections, so whatever it holds is promoted to the old generation.
 */
export function runItem(
  engine: SkeinEngine,
  options: RunDatasetOptions,
  item: DatasetItem,
  stored: boolean,
): Promise<ItemOutcome | undefined> {
  const started = performance.now();
  const threadId = threadIdOf(options.runId, item.id);
  if (stored || options.prepareThread)
    return runAfterWaiting(engine, options, item, stored, threadId, started);
  let thread: ThreadContext;
  let running: Promise<ThreadResult>;
  try {
    thread = engine.createThread(options.workflowId, threadOptionsOf(options, item, threadId));
    running = engine.run(thread, executeOptions(options)).then(({ result }) => result);
  } catch (error) {
    return Promise.resolve(failed(options, item, threadId, undefined, error, started));
  }
  return running.then(
    (outcome) => {
      try {
        return finished(options, item, threadId, thread, outcome, started);
      } catch (error) {
        return failed(options, item, threadId, thread, error, started);
      }
    },
    (error: unknown) =>
      takenElsewhere(error)
        ? afterLease(engine, options, item, threadId, started)
        : failed(options, item, threadId, thread, error, started),
  );
}
