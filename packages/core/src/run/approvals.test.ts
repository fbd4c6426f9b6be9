import { describe, expect, it } from 'vitest';
import type { ThreadPausedEvent } from '../events/event-map.js';
import { engineWith, oneLLM } from '../test-support/executor-fixtures.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function chargeEngine() {
  const charged: number[] = [];
  const charge: Tool<{ amount: number }> = {
    name: 'charge',
    description: 'charges a card',
    parameters: { type: 'object', properties: { amount: { type: 'number' } } },
    needsApproval: (args) => args.amount > 100,
    execute: ({ amount }) => {
      charged.push(amount);
      return `charged ${amount}`;
    },
  };
  const { engine, llm } = engineWith(
    [
      {
        toolCalls: [
          { id: 'small', name: 'charge', arguments: { amount: 50 } },
          { id: 'big', name: 'charge', arguments: { amount: 500 } },
          { id: 'huge', name: 'charge', arguments: { amount: 900 } },
        ],
      },
      { content: 'done' },
    ],
    [charge],
  );
  engine.registerWorkflow(oneLLM({}, ['charge']));
  const paused: ThreadPausedEvent[] = [];
  engine.events.on('thread:paused', (event) => paused.push(event));
  return { engine, llm, charged, paused };
}

describe('tool approvals', () => {
  it('are listed in the paused event and the result: id, name and arguments', async () => {
    const { engine, paused } = chargeEngine();
    const { result } = await engine.run('one', { input: 'pay' });
    const approvals = [
      { toolCallId: 'big', name: 'charge', arguments: '{"amount":500}' },
      { toolCallId: 'huge', name: 'charge', arguments: '{"amount":900}' },
    ];
    expect(result.approvals).toEqual(approvals);
    expect(paused).toEqual([
      expect.objectContaining({ reason: 'tool-approval', nodeId: 'ask', approvals }),
    ]);
  });

  it('take a reason the model sees with a rejection', async () => {
    const { engine, llm, charged } = chargeEngine();
    const { thread } = await engine.run('one', { input: 'pay' });
    await expect(
      engine.resume(thread, { approvals: { big: { approved: false, reason: 1 } } }),
    ).rejects.toThrow(/approvals.big.reason must be a string/);
    const done = await engine.resume(thread, {
      approvals: { big: { approved: true }, huge: { approved: false, reason: 'over the limit' } },
    });
    expect(done.status).toBe('COMPLETED');
    expect(done.approvals).toBeUndefined();
    expect(charged).toEqual([50, 500]);
    const tools = llm.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toEqual([
      'charged 50',
      'charged 500',
      'Error [TOOL_REJECTED]: the call to "charge" was not approved: over the limit',
    ]);
  });

  it('branches that wait are a pause of their own kind, with their paths', async () => {
    const { engine, paused } = chargeEngine();
    engine.registerWorkflow(
      new WorkflowBuilder('asks', '1')
        .variables({ defaults: { items: [1, 2] } })
        .start()
        .map('each', { items: 'vars.items', start: 'q', join: 'join' })
        .userInteraction('q', { prompt: 'ok?' })
        .join('join')
        .end()
        .chain('start', 'each')
        .chain('q', 'join', 'end')
        .build(),
    );
    await engine.run('asks', { threadId: 'b' });
    expect(paused.filter((p) => p.threadId === 'b')).toEqual([
      expect.objectContaining({ reason: 'branches', branches: ['each[0]', 'each[1]'] }),
    ]);
  });
});
