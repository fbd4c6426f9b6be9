import type { SkeinEngine, ThreadContext, ThreadResult } from '@skein/core';
import { SkeinError } from '@skein/spec';
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
  const base = {
    itemId: item.id,
    threadId,
    ...(item.line === undefined ? {} : { line: item.line }),
  };
  let thread: ThreadContext | undefined;
  try {
    thread = stored
      ? await engine.loadThread(threadId)
      : engine.createThread(options.workflowId, {
          ...(options.threadOptions
            ? options.threadOptions(item.value, item.id)
            : { input: item.value }),
          threadId,
        });
    if (!stored && options.prepareThread) await options.prepareThread(thread, item.value);
    const ended =
      thread.status === 'COMPLETED' || thread.status === 'PAUSED' || thread.status === 'FAILED';
    const outcome = ended
      ? storedResult(thread)
      : await engine.execute(thread, {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        });
    if (outcome.status === 'CANCELLED' && options.signal?.aborted) return undefined;
    const error =
      'error' in outcome && outcome.error !== undefined
        ? SkeinError.isInstance(outcome.error)
          ? errorOf(outcome.error)
          : (outcome.error as ItemError)
        : undefined;
    const result: ItemResult = {
      ...base,
      status: outcome.status === 'CANCELLED' ? 'FAILED' : outcome.status,
      ...(outcome.status === 'COMPLETED' && outcome.output !== undefined
        ? { output: outcome.output }
        : {}),
      usage: outcome.usage,
      durationMs: performance.now() - started,
      ...(error ? { error } : {}),
    };
    return { result, thread };
  } catch (error) {
    if (options.signal?.aborted) return undefined;
    return {
      result: {
        ...base,
        status: 'FAILED',
        usage: thread ? thread.conversation.getUsage().total : ZERO_USAGE,
        durationMs: performance.now() - started,
        error: errorOf(error),
      },
      thread,
    };
  }
}
