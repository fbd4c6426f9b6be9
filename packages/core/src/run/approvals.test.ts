import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { ThreadPausedEvent } from '../events/event-map.js';
import type { ThreadEvent } from '../events/thread-event.js';
import { chargeTool, engineWith, oneLLM } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function chargeEngine() {
  const charged: number[] = [];
  const charge = chargeTool(charged);
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
    const { result: done } = await engine.resume(thread, {
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

  it('given twice at once, run the tools once; only the winning claim hears the run', async () => {
    let runs = 0;
    const pay: Tool<{ amount: number }> = {
      name: 'pay',
      description: 'pays',
      parameters: { type: 'object', properties: { amount: { type: 'number' } } },
      needsApproval: () => true,
      execute: () => {
        runs++;
        return 'paid';
      },
    };
    const engine = new SkeinEngine({
      store: new InMemoryCheckpointStore(),
      llm: new ScriptedLLMClient([
        { toolCalls: [{ id: 'p', name: 'pay', arguments: { amount: 5 } }] },
        { content: 'done' },
      ]),
    });
    engine.registerTools([pay]);
    engine.registerWorkflow(oneLLM({}, ['pay']));
    const { thread } = await engine.run('one', { input: 'pay', threadId: 'twice' });
    const again = (await engine.getThread('twice'))!;
    const heard: ThreadEvent['type'][][] = [[], []];
    const claims = await Promise.allSettled(
      [thread, again].map((t, i) =>
        engine.claimResume(
          t,
          { approvals: { p: true } },
          { onEvent: (e) => heard[i]!.push(e.type) },
        ),
      ),
    );
    const won = claims.findIndex((c) => c.status === 'fulfilled');
    const lost = claims.find((c) => c.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ code: 'RESUME_CONFLICT' });
    const { result } = (claims[won] as PromiseFulfilledResult<{ result: Promise<unknown> }>).value;
    expect(await result).toMatchObject({ status: 'COMPLETED', output: 'done' });
    expect(runs).toBe(1);
    expect(heard[won]).toContain('tool:result');
    expect(heard[won]!.at(-1)).toBe('thread:completed');
    expect(heard[1 - won]).toEqual([]);
  });
});
