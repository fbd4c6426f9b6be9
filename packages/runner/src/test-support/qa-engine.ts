import { type CheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import type { LLMClient, LLMRequest } from '@skein/spec';
import { contentText } from '@skein/spec';

/** A tool name longer than OpenAI's 64 characters, with a dot: the export must encode it. */
export const LONG_TOOL = 'knowledge_base.lookup_the_answer_to_a_question_in_the_encyclopedia_v2';

/** The scripted model of the tests: calls the lookup tool, then answers from its result. */
export function qaModel(request: LLMRequest): {
  content?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  usage: { promptTokens: number; completionTokens: number };
  fail?: string;
} {
  const last = request.messages.at(-1)!;
  const usage = { promptTokens: 10, completionTokens: 5 };
  if (last.role === 'tool') return { content: `answer: ${last.content}`, usage };
  if (contentText(last.content).includes('boom'))
    return { fail: 'the model refused this item', usage };
  return { toolCalls: [{ name: LONG_TOOL, arguments: { q: contentText(last.content) } }], usage };
}

export interface QaEngineOptions {
  readonly store?: CheckpointStore;
  readonly llm?: LLMClient;
  /** Called on every tool execution with the thread id. */
  readonly onToolCall?: (threadId: string) => void;
  /** Milliseconds the tool takes. */
  readonly toolDelayMs?: number;
  /**
   * Tool calls held until this many are waiting, then let go together: their items finish in
   * one turn of the event loop, as items of a busy run do, without depending on timing.
   */
  readonly toolBarrier?: number;
  /** The engine's store lease (default the engine's, 30 s) and the clock it is kept by. */
  readonly leaseMs?: number;
  readonly now?: () => number;
}

/** Resolves the n-th caller and every earlier one at once. */
function barrier(size: number): () => Promise<void> {
  let waiting: (() => void)[] = [];
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length < size) return;
      for (const release of waiting) release();
      waiting = [];
    });
}

/** An engine with the `qa` workflow: start → answer (LLM + lookup tool) → end. */
export function qaEngine(options: QaEngineOptions = {}): SkeinEngine {
  const together = options.toolBarrier === undefined ? undefined : barrier(options.toolBarrier);
  const engine = new SkeinEngine({
    llm: options.llm ?? new ScriptedLLMClient(qaModel),
    ...(options.store ? { store: options.store } : {}),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  engine.registerTool({
    name: LONG_TOOL,
    description: 'Looks a question up',
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    execute: async ({ q }: { q: string }, context) => {
      options.onToolCall?.(context.threadId);
      if (options.toolDelayMs) await new Promise((r) => setTimeout(r, options.toolDelayMs));
      await together?.();
      return { found: q.toUpperCase() };
    },
  });
  engine.registerWorkflow(
    new WorkflowBuilder('qa', '1')
      .initialTools([LONG_TOOL])
      .start()
      .llm('answer', { retry: { maxAttempts: 1 } })
      .end('end', { output: 'nodes.answer' })
      .chain('start', 'answer', 'end')
      .build(),
  );
  return engine;
}
