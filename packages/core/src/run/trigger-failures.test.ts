import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { TriggerDefinition } from '../workflow/types.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function engineWith(trigger: TriggerDefinition) {
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ store });
  engine.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .variables({ defaults: { n: 0, name: 'ada' } })
      .start()
      .variable('inc', {
        assign: { n: 'vars.n + 1' },
        message: { role: 'user', content: 'tick {{ vars.n }}' },
      })
      .end('end', { output: 'vars.n' })
      .chain('start', 'inc', 'end')
      .trigger(trigger)
      .build(),
  );
  return { engine, store };
}

describe('a trigger that fails at run time', () => {
  // What fails, the trigger, the stage that fails and the node after which it runs.
  const failing: [string, TriggerDefinition, 'condition' | 'action', string][] = [
    [
      'an INSERT at a position that is not visible',
      {
        id: 'insert-far',
        when: { type: 'node-completed', nodeId: 'inc' },
        action: {
          type: 'context',
          operation: { type: 'INSERT', position: 99, message: { role: 'user', content: 'x' } },
        },
      },
      'action',
      'inc',
    ],
    [
      'a condition that throws',
      {
        id: 'bad-math',
        when: { type: 'expression', expression: 'vars.name - 1 > 0' },
        action: { type: 'goto', nodeId: 'end' },
      },
      'condition',
      'start',
    ],
    [
      'a set-variable of a value JSON cannot carry',
      {
        id: 'divide',
        when: { type: 'node-completed', nodeId: 'inc' },
        action: { type: 'set-variable', variable: 'ratio', expression: 'vars.n / 0' },
      },
      'action',
      'inc',
    ],
  ];

  for (const [what, trigger, stage, nodeId] of failing)
    it(`ends the thread FAILED naming the trigger, checkpointed, every time: ${what}`, async () => {
      const { engine, store } = engineWith(trigger);
      const thread = engine.createThread('w', { threadId: 't' });
      const { result: first } = await engine.run(thread);
      expect(first.status).toBe('FAILED');
      expect(first.error).toMatchObject({
        code: 'TRIGGER_FAILED',
        triggerId: trigger.id,
        nodeId,
        details: { stage },
      });
      expect(first.error!.message).toContain(`Trigger "${trigger.id}"`);
      expect(thread.status).toBe('FAILED');
      // The node and its triggers are one step: the node was undone and runs again next time.
      expect(thread.state.currentNodeId).toBe(nodeId);
      expect(thread.variables.n).toBe(0);
      const stored = await store.load('t');
      expect(stored!.state.status).toBe('FAILED');
      expect(stored!.state.error).toMatchObject({ code: 'TRIGGER_FAILED', nodeId });

      const { result: second } = await engine.run(thread);
      expect(second.status).toBe('FAILED');
      expect(second.error?.code).toBe('TRIGGER_FAILED');
      const { result: reloaded } = await engine.run(await engine.loadThread('t'));
      expect(reloaded.status).toBe('FAILED');
    });
});
