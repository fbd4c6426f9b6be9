import { SkeinEngine } from '../engine/skein-engine.js';
import type { SkeinEventMap } from '../events/event-map.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptStep } from '../testing/types.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

// Shared by the executor's behaviour tests (routing, LLM node, tool errors, pause, events).

export const add: Tool<{ a: number; b: number }> = {
  name: 'add',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: ({ a, b }) => a + b,
};

export function engineWith(
  script: readonly ScriptStep[] | ScriptedLLMClient,
  tools: Tool[] = [add],
) {
  const llm = script instanceof ScriptedLLMClient ? script : new ScriptedLLMClient(script);
  const engine = new SkeinEngine({ llm });
  engine.registerTools(tools);
  return { engine, llm };
}

export function oneLLM(config: Record<string, unknown> = {}, initialTools = ['add']) {
  return new WorkflowBuilder('one', '1')
    .initialTools(initialTools)
    .start()
    .llm('ask', { prompt: '{{ input }}', ...config })
    .end()
    .chain('start', 'ask', 'end')
    .build();
}

export function collect<K extends keyof SkeinEventMap>(
  engine: SkeinEngine,
  name: K,
): SkeinEventMap[K][] {
  const seen: SkeinEventMap[K][] = [];
  engine.events.on(name, ((payload: SkeinEventMap[K]) => seen.push(payload)) as never);
  return seen;
}
