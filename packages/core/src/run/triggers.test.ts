import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function loop(builder: WorkflowBuilder, limit: number) {
  return builder
    .variables({ defaults: { n: 0 } })
    .start()
    .variable('inc', {
      assign: { n: 'vars.n + 1' },
      message: { role: 'user', content: 'message number {{ vars.n }} with some words in it' },
    })
    .route('check')
    .end('end', { output: 'vars.n' })
    .chain('start', 'inc', 'check')
    .edge('check', 'inc', { when: `vars.n < ${limit}` })
    .edge('check', 'end');
}

describe('triggers', () => {
  it('keep a long conversation within a token budget automatically', async () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow(
      loop(new WorkflowBuilder('budget', '1'), 200)
        .trigger({
          id: 'trim',
          when: { type: 'visible-tokens-over', tokens: 200 },
          action: { type: 'context', operation: { type: 'TRUNCATE', maxTokens: 120 } },
        })
        .build(),
    );
    const fired: string[] = [];
    engine.events.on('trigger:fired', (e) => fired.push(e.triggerId));
    const { thread, result } = await engine.run('budget', { maxSteps: 2000 });
    expect(result.output).toBe(200);
    expect(fired.length).toBeGreaterThan(5);
    expect(thread.conversation.getMessageCount()).toBeLessThan(20);
    expect(thread.conversation.getTotalMessageCount()).toBe(200);
  });

  it("count visible tokens with the engine's own token counter", async () => {
    // 100 tokens a message: the budget of 250 is passed at the third message.
    const engine = new SkeinEngine({ tokenCounter: () => 100 });
    engine.registerWorkflow(
      loop(new WorkflowBuilder('counter', '1'), 10)
        .trigger({
          id: 'stop',
          once: true,
          when: { type: 'visible-tokens-over', tokens: 250 },
          action: { type: 'goto', nodeId: 'end' },
        })
        .build(),
    );
    const { result } = await engine.run('counter');
    expect(result.output).toBe(3);
  });

  it('clear on a message count, set a variable on a node, jump on an expression, once', async () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow(
      loop(new WorkflowBuilder('mixed', '1'), 30)
        .trigger({
          id: 'clear',
          when: { type: 'visible-messages-over', count: 10 },
          action: { type: 'context', operation: { type: 'CLEAR', keepSystemMessage: false } },
        })
        .trigger({
          id: 'flag',
          when: { type: 'node-completed', nodeId: 'start' },
          action: { type: 'set-variable', variable: 'started', expression: 'true' },
        })
        .trigger({
          id: 'jump',
          once: true,
          when: { type: 'expression', expression: 'vars.n == 12' },
          action: { type: 'goto', nodeId: 'end' },
        })
        .build(),
    );
    const { thread, result } = await engine.run('mixed');
    expect(result.output).toBe(12);
    expect(thread.variables.started).toBe(true);
    expect(thread.state.firedTriggers).toEqual(['jump']);
    expect(thread.conversation.getMessageCount()).toBeLessThanOrEqual(11);
  });

  it('react to repeated tool failures', async () => {
    const broken: Tool = {
      name: 'broken',
      description: 'fails',
      parameters: { type: 'object' },
      execute: () => {
        throw new Error('nope');
      },
    };
    const llm = new ScriptedLLMClient([
      { toolCalls: [{ name: 'broken' }, { name: 'broken' }] },
      { content: 'gave up' },
    ]);
    const engine = new SkeinEngine({ llm });
    engine.registerTool(broken);
    engine.registerWorkflow(
      new WorkflowBuilder('fails', '1')
        .initialTools(['broken'])
        .start()
        .llm('ask')
        .variable('after', { values: {} })
        .end('end', { output: 'vars.alert' })
        .chain('start', 'ask', 'after', 'end')
        .trigger({
          id: 'alert',
          when: { type: 'tool-failed', tool: 'broken', times: 2 },
          action: { type: 'set-variable', variable: 'alert', expression: '"broken failed twice"' },
        })
        .build(),
    );
    const { result, thread } = await engine.run('fails', { input: 'go' });
    expect(result.output).toBe('broken failed twice');
    expect(thread.state.toolFailures.broken).toBe(0);
  });
});
