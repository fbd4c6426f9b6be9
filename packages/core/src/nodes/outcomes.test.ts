import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { add, oneHiddenClass } from '../executor/executor-fixtures.js';
import { DEFAULT_HANDLERS, type NodeHandlers } from '../executor/node-handlers.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { WorkflowDefinition } from '../workflow/types.js';
import type { NodeHandler, NodeOutcome } from './node-handler.js';
import { endOutcome, nextOutcome } from './outcomes.js';

/** The built-in handlers, each recording what it returned. */
function recording(outcomes: NodeOutcome[]): Partial<NodeHandlers> {
  const wrap =
    (handler: NodeHandler<never>): NodeHandler<never> =>
    (ctx) => {
      const returned = handler(ctx);
      if (returned instanceof Promise)
        return returned.then((o) => {
          outcomes.push(o);
          return o;
        });
      outcomes.push(returned);
      return returned;
    };
  return Object.fromEntries(
    Object.entries(DEFAULT_HANDLERS).map(([type, h]) => [type, wrap(h as NodeHandler<never>)]),
  );
}

/** START → VARIABLE → ROUTE → MAP (LLM per item) → JOIN → TOOL → CONTEXT_PROCESSOR → END. */
const everyKind: WorkflowDefinition = {
  id: 'every-kind',
  version: '1',
  nodes: [
    { id: 'start', type: 'START' },
    { id: 'set', type: 'VARIABLE', config: { values: { a: 1 } } },
    { id: 'route', type: 'ROUTE' },
    { id: 'fan', type: 'MAP', config: { items: 'vars.items', start: 'ask', join: 'join' } },
    { id: 'ask', type: 'LLM', config: { prompt: 'item {{ vars.item }}' } },
    { id: 'join', type: 'JOIN' },
    { id: 'sum', type: 'TOOL', config: { tool: 'add', args: { a: 1, b: 2 } } },
    {
      id: 'trim',
      type: 'CONTEXT_PROCESSOR',
      config: { operations: [{ operation: 'truncate', keep: 'last', count: 10 }] },
    },
    { id: 'end', type: 'END', config: { output: 'vars.a' } },
  ],
  edges: [
    { from: 'start', to: 'set' },
    { from: 'set', to: 'route' },
    { from: 'route', to: 'fan' },
    { from: 'ask', to: 'join' },
    { from: 'join', to: 'sum' },
    { from: 'sum', to: 'trim' },
    { from: 'trim', to: 'end' },
  ],
};

describe('node outcomes', () => {
  it('every built-in handler answers with one hidden class, with or without an output', async () => {
    // A class only the root of a fan-out returns (MAP, JOIN, END) is dropped by V8 at the next
    // full GC, and the run loop specialised to it with it (decision 0010).
    const outcomes: NodeOutcome[] = [];
    const engine = new SkeinEngine({
      llm: new ScriptedLLMClient([{ content: 'a' }, { content: 'b' }]),
      store: new InMemoryCheckpointStore(),
      handlers: recording(outcomes),
    });
    engine.registerTools([add]);
    engine.registerWorkflow(everyKind);
    const { result } = await engine.run('every-kind', { variables: { items: [1, 2] } });
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toBe(1);
    expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(['next', 'end']));
    // START, VARIABLE, ROUTE, MAP, an LLM per branch, JOIN, TOOL, CONTEXT_PROCESSOR, END.
    expect(outcomes).toHaveLength(10);
    expect(oneHiddenClass(outcomes)).toBe(true);
  });

  it('nextOutcome and endOutcome carry what they are given', () => {
    expect(nextOutcome()).toEqual({ kind: 'next', output: undefined, status: undefined });
    // The common outcome is made once and shared (it keeps the class of the others, above).
    expect(nextOutcome()).toBe(nextOutcome());
    expect(nextOutcome(0)).not.toBe(nextOutcome());
    expect(nextOutcome([1], 'max-tool-rounds')).toEqual({
      kind: 'next',
      output: [1],
      status: 'max-tool-rounds',
    });
    expect(endOutcome('done')).toEqual({ kind: 'end', output: 'done', status: undefined });
  });
});
