import { SkeinEngine } from '../engine/skein-engine.js';
import type { SkeinEventMap } from '../events/event-map.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptStep } from '../testing/types.js';
import type { Tool } from '../tools/tool.js';
import type { WorkflowDefinition } from '../workflow/types.js';
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

/**
 * A tool that needs a person's approval above 100; each amount it charged is pushed to `charged`
 * (the side effect approvals guard).
 */
export function chargeTool(charged: number[]): Tool<{ amount: number }> {
  return {
    name: 'charge',
    description: 'charges a card',
    parameters: { type: 'object', properties: { amount: { type: 'number' } } },
    needsApproval: (args) => args.amount > 100,
    execute: ({ amount }) => {
      charged.push(amount);
      return `charged ${amount}`;
    },
  };
}

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

/**
 * START → inc (VARIABLE: `n + 1`, and a user message when `message` is given) → check (ROUTE) →
 * inc … → END with `n`, once `n` reaches `limit`.
 */
export function countTo(
  limit: number,
  options: { readonly id?: string; readonly message?: string } = {},
): WorkflowDefinition {
  const { id = 'loop', message } = options;
  return new WorkflowBuilder(id, '1')
    .variables({ defaults: { n: 0 } })
    .start()
    .variable('inc', {
      assign: { n: 'vars.n + 1' },
      ...(message === undefined ? {} : { message: { role: 'user' as const, content: message } }),
    })
    .route('check')
    .end('end', { output: 'vars.n' })
    .chain('start', 'inc', 'check')
    .edge('check', 'inc', { when: `vars.n < ${limit}` })
    .edge('check', 'end')
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

/** START → MAP over `vars.items` (VARIABLE `doubled = item * 2` per item) → JOIN (`results`) → END. */
export function doubleEach(maxConcurrency?: number): WorkflowDefinition {
  return {
    id: 'double',
    version: '1',
    nodes: [
      { id: 'start', type: 'START' },
      {
        id: 'fan',
        type: 'MAP',
        config: {
          items: 'vars.items',
          start: 'times2',
          join: 'join',
          ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
        },
      },
      { id: 'times2', type: 'VARIABLE', config: { assign: { doubled: 'vars.item * 2' } } },
      { id: 'join', type: 'JOIN', config: { output: 'vars.doubled', outputVariable: 'results' } },
      { id: 'end', type: 'END', config: { output: 'vars.results' } },
    ],
    edges: [
      { from: 'start', to: 'fan' },
      { from: 'times2', to: 'join' },
      { from: 'join', to: 'end' },
    ],
  };
}

/** START → MAP over `vars.items` (one LLM branch per item, prompt `item {{ vars.item }}`) → JOIN → END. */
export function askEach(): WorkflowDefinition {
  return {
    id: 'ask-each',
    version: '1',
    nodes: [
      { id: 'start', type: 'START' },
      { id: 'fan', type: 'MAP', config: { items: 'vars.items', start: 'ask', join: 'join' } },
      { id: 'ask', type: 'LLM', config: { prompt: 'item {{ vars.item }}' } },
      { id: 'join', type: 'JOIN' },
      { id: 'end', type: 'END' },
    ],
    edges: [
      { from: 'start', to: 'fan' },
      { from: 'ask', to: 'join' },
      { from: 'join', to: 'end' },
    ],
  };
}
