import { createHash } from 'node:crypto';
import {
  type CheckpointStore,
  SkeinEngine,
  type SkeinEngineOptions,
  type Tool,
  WorkflowBuilder,
} from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import type { LLMClient, LLMRequest } from '@skein/spec';

/** A few nodes: three model calls, each followed by a counter step, then the end. */
export function chainWorkflow() {
  const builder = new WorkflowBuilder('chain', '1').variables({ defaults: { n: 0 } }).start();
  const ids = ['start'];
  for (let i = 0; i < 3; i++) {
    builder
      .llm(`ask${i}`, { prompt: 'step {{ vars.n }}' })
      .variable(`note${i}`, { assign: { n: 'vars.n + 1' } });
    ids.push(`ask${i}`, `note${i}`);
  }
  return builder
    .end('end', { output: 'vars.n' })
    .chain(...ids, 'end')
    .build();
}

/** Asks, waits for an answer, asks again. */
export function approvalWorkflow() {
  return new WorkflowBuilder('approval', '1')
    .start()
    .llm('draft', { prompt: 'draft it' })
    .userInteraction('confirm', { prompt: 'ok?', variable: 'answer' })
    .llm('final', { prompt: 'finish' })
    .end('end', { output: 'vars.answer' })
    .chain('start', 'draft', 'confirm', 'final', 'end')
    .build();
}

/** A model call that never answers until the thread is cancelled. */
export function foreverWorkflow() {
  return new WorkflowBuilder('forever', '1')
    .start()
    .llm('wait', { prompt: 'hang' })
    .end('end')
    .chain('start', 'wait', 'end')
    .build();
}

/** A model call, then a tool that waits at a gate the test opens, then another model call. */
export function gatedWorkflow() {
  return new WorkflowBuilder('gated', '1')
    .start()
    .llm('ask', { prompt: 'plan it' })
    .tool('wait', { tool: 'gate', args: {} })
    .llm('answer', { prompt: 'finish it' })
    .end('end')
    .chain('start', 'ask', 'wait', 'answer', 'end')
    .build();
}

/** The `gate` tool of `gatedWorkflow`: resolves when `pass(threadId)` does. */
export function gateTool(pass: (threadId: string) => Promise<string>): Tool {
  return {
    name: 'gate',
    description: 'Waits until the test lets the thread through',
    parameters: { type: 'object', properties: {} },
    // Longer than any test waits: the gate, not a timeout, ends the call.
    timeoutMs: 600_000,
    execute: (_args, context) => pass(context.threadId),
  };
}

/**
 * The answer depends on everything the model was sent, so any lost or repeated message changes
 * every later answer and the thread's stored conversation. A call `holds` picks hangs until the
 * run is aborted (or its process killed), as a prompt of `hang` does.
 */
export function scriptedModel(
  delayMs = 0,
  holds: (request: LLMRequest) => boolean = () => false,
): ScriptedLLMClient {
  return new ScriptedLLMClient(
    (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user' && last.content === 'hang') return { hang: true };
      if (holds(request)) return { hang: true };
      const digest = createHash('sha1').update(JSON.stringify(request.messages)).digest('hex');
      return { content: `reply-${digest.slice(0, 12)}`, ...(delayMs > 0 ? { delayMs } : {}) };
    },
    { stream: true },
  );
}

/** An engine with the three test workflows on `store`. */
export function testEngine(
  store: CheckpointStore,
  llm: LLMClient = scriptedModel(),
  options: Pick<SkeinEngineOptions, 'leaseMs' | 'owner'> = {},
): SkeinEngine {
  const engine = new SkeinEngine({ llm, store, ...options });
  engine.registerWorkflow(chainWorkflow());
  engine.registerWorkflow(approvalWorkflow());
  engine.registerWorkflow(foreverWorkflow());
  return engine;
}
