import { describe, expect, it } from 'vitest';
import { collect, countTo, engineWith, oneLLM } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

describe('routing on variables', () => {
  it('takes the first conditional edge that holds, else the default', async () => {
    const def = new WorkflowBuilder('tiers', '1')
      .variables({
        schema: { type: 'object', properties: { user: { type: 'object' } } },
        defaults: { user: { tier: 'basic' } },
      })
      .start()
      .route('route')
      .variable('gold', { values: { perk: 'lounge' } })
      .variable('basic', { values: { perk: 'none' } })
      .end('end', { output: 'vars.perk' })
      .edge('start', 'route')
      .edge('route', 'gold', { when: 'vars.user.tier in ["gold", "platinum"]' })
      .edge('route', 'basic', { default: true })
      .chain('gold', 'end')
      .chain('basic', 'end')
      .build();
    // The builder spells the default edge as the JSON does.
    expect(def.edges).toContainEqual({ from: 'route', to: 'basic', default: true });
    const { engine } = engineWith([]);
    engine.registerWorkflow(def);
    expect(
      (await engine.run('tiers', { variables: { user: { tier: 'gold' } } })).result.output,
    ).toBe('lounge');
    expect(
      (await engine.run('tiers', { variables: { user: { tier: 'platinum' } } })).result.output,
    ).toBe('lounge');
    expect((await engine.run('tiers')).result.output).toBe('none');
    expect(() => engine.createThread('tiers', { variables: { user: 'x' } })).toThrow(
      /do not match its schema/,
    );
  });

  it('loops with a counter until a condition exits', async () => {
    const def = countTo(5, { message: 'tick {{ vars.n }}' });
    const { engine } = engineWith([]);
    engine.registerWorkflow(def);
    const { result, thread } = await engine.run('loop');
    expect(result).toMatchObject({ status: 'COMPLETED', output: 5, steps: 12 });
    expect(
      thread.conversation
        .getMessages()
        .map((m) => m.content)
        .slice(-2),
    ).toEqual(['tick 4', 'tick 5']);
  });
});

describe('LLM node', () => {
  it('stops at maxToolRounds with a clear status and an event, never loops forever', async () => {
    const { engine, llm } = engineWith(
      new ScriptedLLMClient([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }], {
        whenExhausted: 'repeat-last',
      }),
    );
    engine.registerWorkflow(oneLLM({ maxToolRounds: 3 }));
    const warnings = collect(engine, 'warning');
    const completed = collect(engine, 'node:completed');
    const { result } = await engine.run('one', { input: 'loop please' });
    expect(result.status).toBe('COMPLETED');
    expect(llm.calls).toHaveLength(3);
    expect(warnings.map((w) => w.code)).toContain('MAX_TOOL_ROUNDS');
    expect(completed.find((c) => c.nodeId === 'ask')?.status).toBe('max-tool-rounds');
  });

  it('runs parallel tool calls with a concurrency limit and keeps call order', async () => {
    let running = 0;
    let peak = 0;
    const slow: Tool<{ ms: number }> = {
      name: 'slow',
      description: 'waits',
      parameters: { type: 'object', properties: { ms: { type: 'number' } } },
      execute: async ({ ms }) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, ms));
        running--;
        return `waited ${ms}`;
      },
    };
    const { engine, llm } = engineWith(
      [
        { toolCalls: [30, 5, 20, 1, 10].map((ms) => ({ name: 'slow', arguments: { ms } })) },
        { content: 'done' },
      ],
      [slow],
    );
    engine.registerWorkflow(oneLLM({ toolConcurrency: 2 }, ['slow']));
    await engine.run('one', { input: 'go' });
    expect(peak).toBe(2);
    const toolMessages = llm.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.content)).toEqual([
      'waited 30',
      'waited 5',
      'waited 20',
      'waited 1',
      'waited 10',
    ]);
  });

  it('retries model errors with backoff, then fails the node with a typed error', async () => {
    const { engine, llm } = engineWith([{ content: 'ok' }]);
    llm.failNext('rate limited', 2);
    engine.registerWorkflow(oneLLM({ retry: { maxAttempts: 3, initialDelayMs: 1 } }));
    const warnings = collect(engine, 'warning');
    expect((await engine.run('one', { input: 'hi' })).result.output).toBe('ok');
    expect(warnings.filter((w) => w.code === 'LLM_RETRY')).toHaveLength(2);

    const { engine: failing, llm: broken } = engineWith([{ content: 'never' }]);
    broken.failNext('down', 5);
    failing.registerWorkflow(oneLLM({ retry: { maxAttempts: 2, initialDelayMs: 1 } }));
    const { result, thread } = await failing.run('one', { input: 'hi' });
    expect(result.status).toBe('FAILED');
    expect(result.error?.code).toBe('LLM_CALL_FAILED');
    expect(result.error?.message).toMatch(/after 2 attempts.*down/);
    // The failed node was undone: no assistant message, and its prompt is stored but not shown.
    expect(thread.conversation.getMessages().map((m) => m.role)).toEqual(['system', 'user']);
    expect(thread.conversation.getAllMessages().map((m) => m.role)).toEqual([
      'system',
      'user',
      'user',
    ]);
  });
});
