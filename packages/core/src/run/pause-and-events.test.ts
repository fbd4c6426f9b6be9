import { describe, expect, it } from 'vitest';
import { chargeTool, collect, engineWith, oneLLM } from '../test-support/executor-fixtures.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

describe('pause and resume', () => {
  it('USER_INTERACTION pauses until input is given', async () => {
    const def = new WorkflowBuilder('ask-user', '1')
      .start()
      .userInteraction('confirm', { prompt: 'Book {{ vars.city }}?', variable: 'answer' })
      .route('route')
      .variable('yes', { values: { booked: true } })
      .end('end', { output: 'vars.booked' })
      .chain('start', 'confirm', 'route')
      .edge('route', 'yes', { when: 'vars.answer == "yes"' })
      .edge('route', 'end')
      .chain('yes', 'end')
      .build();
    const { engine } = engineWith([]);
    engine.registerWorkflow(def);
    const paused = collect(engine, 'thread:paused');
    const thread = engine.createThread('ask-user', { variables: { city: 'Rome', booked: false } });
    const { result: first } = await engine.run(thread);
    expect(first.status).toBe('PAUSED');
    expect(first.pending).toEqual({ kind: 'user-input', nodeId: 'confirm', prompt: 'Book Rome?' });
    expect(paused).toHaveLength(1);
    await expect(engine.run(thread)).rejects.toThrow(/waits for input/);
    await expect(engine.resume(thread, undefined)).rejects.toThrow(/input is missing/);
    const { result: done } = await engine.resume(thread, 'yes');
    expect(done).toMatchObject({ status: 'COMPLETED', output: true });
    expect(thread.conversation.getMessages().at(-1)).toMatchObject({
      role: 'user',
      content: 'yes',
    });
    await expect(engine.resume(thread, 'again')).rejects.toThrow(/only a PAUSED thread/);
  });

  it('a tool that needs approval pauses the thread before it runs', async () => {
    const charged: number[] = [];
    const charge = chargeTool(charged);
    const { engine, llm } = engineWith(
      [
        {
          toolCalls: [
            { name: 'charge', arguments: { amount: 50 } },
            { id: 'big', name: 'charge', arguments: { amount: 500 } },
          ],
        },
        { content: 'done' },
      ],
      [charge],
    );
    engine.registerWorkflow(oneLLM({}, ['charge']));
    const thread = engine.createThread('one', { input: 'pay' });
    const { result: first } = await engine.run(thread);
    expect(first.status).toBe('PAUSED');
    expect(first.pending).toMatchObject({ kind: 'tool-approval', awaiting: ['big'] });
    expect(charged).toEqual([]);
    await expect(engine.resume(thread, { approvals: {} })).rejects.toThrow(
      /no decision for tool call big/,
    );
    expect(thread.status).toBe('PAUSED');
    const { result: done } = await engine.resume(thread, { approvals: { big: false } });
    expect(done.status).toBe('COMPLETED');
    expect(charged).toEqual([50]);
    const tools = llm.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toEqual([
      'charged 50',
      'Error [TOOL_REJECTED]: the call to "charge" was not approved',
    ]);
  });
});

describe('events', () => {
  it('emits thread, node, llm, tool, message and batch events with the thread id', async () => {
    const { engine } = engineWith([
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      { content: 'three' },
    ]);
    engine.registerWorkflow(oneLLM());
    const expected = [
      'thread:started',
      'thread:completed',
      'node:started',
      'node:completed',
      'llm:token',
      'llm:response',
      'tool:call',
      'tool:result',
      'message:added',
      'batch:started',
    ] as const;
    const names: string[] = [];
    const ids = new Set<string>();
    for (const name of expected)
      engine.events.on(name, (p: { threadId?: string }) => {
        names.push(name);
        if (p.threadId) ids.add(p.threadId);
      });
    const { thread } = await engine.run('one', { input: 'sum' });
    // Every event fired at least once.
    expect(new Set(names)).toEqual(new Set(expected));
    expect([...ids]).toEqual([thread.threadId]);
  });
});
