import { describe, expectTypeOf, it } from 'vitest';
import { type NodeDefinition, WorkflowBuilder, type WorkflowDefinition } from '../index.js';

describe('WorkflowBuilder', () => {
  it('chains every step and builds a WorkflowDefinition', () => {
    const built = new WorkflowBuilder('w')
      .initialTools(['weather'])
      .variables({ defaults: { visits: 0 } })
      .start()
      .llm('ask', { prompt: 'Hi', maxToolRounds: 2, toolChoice: { name: 'weather' } })
      .tool('call', { tool: 'weather', args: { city: '{{ vars.city }}' } })
      .variable('count', { assign: { visits: 'vars.visits + 1' } })
      .contextProcessor('reset', [{ type: 'CLEAR', keepSystemMessage: true }])
      .userInteraction('more', { prompt: 'More?', variable: 'answer' })
      .route('branch')
      .end()
      .edge('branch', 'end', { when: 'vars.answer == "no"' })
      .chain('start', 'ask', 'call', 'count', 'reset', 'more', 'branch')
      .build();
    expectTypeOf(built).toEqualTypeOf<WorkflowDefinition>();
    expectTypeOf(built.nodes).items.toEqualTypeOf<NodeDefinition>();
  });

  it('keeps a subclass through the chain (steps return this)', () => {
    class TeamBuilder extends WorkflowBuilder {
      review(id: string): this {
        return this.userInteraction(id, { prompt: 'Approve?', variable: 'approved' });
      }
    }
    expectTypeOf(new TeamBuilder('t').start().review('r').end()).toEqualTypeOf<TeamBuilder>();
  });

  it('refuses configs of the wrong shape', () => {
    const b = new WorkflowBuilder('w');
    // @ts-expect-error: a TOOL node names its tool
    b.tool('call', { args: {} });
    // @ts-expect-error: assignments are expressions (strings)
    b.variable('v', { assign: { visits: 1 } });
    // @ts-expect-error: no such context operation
    b.contextProcessor('c', [{ operation: 'shred' }]);
    // @ts-expect-error: temperature is a number
    b.llm('l', { temperature: 'warm' });
  });
});
