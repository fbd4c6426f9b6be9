import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { SkeinEventMap } from '../events/event-map.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptStep } from '../testing/types.js';
import { type Tool, toolOutput } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

const add: Tool<{ a: number; b: number }> = {
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

function engineWith(script: readonly ScriptStep[] | ScriptedLLMClient, tools: Tool[] = [add]) {
  const llm = script instanceof ScriptedLLMClient ? script : new ScriptedLLMClient(script);
  const engine = new SkeinEngine({ llm });
  engine.registerTools(tools);
  return { engine, llm };
}

function oneLLM(config: Record<string, unknown> = {}, initialTools = ['add']) {
  return new WorkflowBuilder('one', '1')
    .initialTools(initialTools)
    .start()
    .llm('ask', { prompt: '{{ input }}', ...config })
    .end()
    .chain('start', 'ask', 'end')
    .build();
}

function collect<K extends keyof SkeinEventMap>(engine: SkeinEngine, name: K): SkeinEventMap[K][] {
  const seen: SkeinEventMap[K][] = [];
  engine.events.on(name, ((payload: SkeinEventMap[K]) => seen.push(payload)) as never);
  return seen;
}

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
      .edge('route', 'basic')
      .chain('gold', 'end')
      .chain('basic', 'end')
      .build();
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
    const def = new WorkflowBuilder('loop', '1')
      .variables({ defaults: { n: 0 } })
      .start()
      .variable('inc', {
        assign: { n: 'vars.n + 1' },
        message: { role: 'user', content: 'tick {{ vars.n }}' },
      })
      .route('check')
      .end('end', { output: 'vars.n' })
      .chain('start', 'inc', 'check')
      .edge('check', 'inc', { when: 'vars.n < 5' })
      .edge('check', 'end')
      .build();
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

describe('tool errors reach the model and the thread goes on', () => {
  const thrower: Tool = {
    name: 'explode',
    description: 'throws',
    parameters: { type: 'object' },
    execute: () => {
      throw new Error('boom');
    },
  };
  const sleeper: Tool = {
    name: 'sleepy',
    description: 'never ends in time',
    parameters: { type: 'object' },
    timeoutMs: 20,
    execute: (_args, { signal }) =>
      new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted by timeout'))),
      ),
  };
  const failing: Tool = {
    name: 'soft',
    description: 'returns an error output',
    parameters: { type: 'object' },
    execute: () =>
      toolOutput({ content: 'quota exceeded', isError: true, data: { retryAfter: 5 } }),
  };

  it('turns bad arguments, throws, timeouts, unknown tools and broken calls into tool messages', async () => {
    const { engine, llm } = engineWith(
      [
        {
          toolCalls: [
            { name: 'add', arguments: { a: 1, b: 'two' } },
            { name: 'add', arguments: '{"a": 1,' },
            { name: 'explode', arguments: {} },
            { name: 'sleepy', arguments: {} },
            { name: 'missing', arguments: {} },
            { name: '', arguments: '{}', error: 'the stream ended before a name arrived' },
            { name: 'soft', arguments: {} },
            { name: 'add', arguments: { a: 2, b: 3 } },
          ],
        },
        { content: 'recovered' },
      ],
      [add, thrower, sleeper, failing],
    );
    engine.registerWorkflow(oneLLM({}, ['add', 'explode', 'sleepy', 'soft']));
    const errors = collect(engine, 'tool:error');
    const { result } = await engine.run('one', { input: 'try everything' });
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toBe('recovered');
    const tools = llm.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual([
      expect.stringMatching(/^Error \[TOOL_ARGUMENTS_INVALID\]: .*\/b must be number/),
      expect.stringMatching(/^Error \[TOOL_ARGUMENTS_INVALID\]: .*not valid JSON/),
      'Error [TOOL_FAILED]: boom',
      expect.stringMatching(/^Error \[TOOL_TIMEOUT\]: Tool "sleepy" did not finish within 20 ms/),
      expect.stringMatching(
        /^Error \[TOOL_NOT_FOUND\]: Tool "missing" is not registered \(available here: add, explode, sleepy, soft\)/,
      ),
      'Error [TOOL_CALL_INVALID]: the stream ended before a name arrived',
      'quota exceeded',
      '5',
    ]);
    expect(tools.every((m) => typeof m.toolCallId === 'string')).toBe(true);
    expect(tools[6]!.metadata).toMatchObject({ isError: true, data: { retryAfter: 5 } });
    // Calls run in parallel, so error events come in completion order.
    expect(errors.map((e) => e.code).sort()).toEqual([
      'TOOL_ARGUMENTS_INVALID',
      'TOOL_ARGUMENTS_INVALID',
      'TOOL_CALL_INVALID',
      'TOOL_FAILED',
      'TOOL_FAILED',
      'TOOL_NOT_FOUND',
      'TOOL_TIMEOUT',
    ]);
  });

  it('skips the schema check for tools that opt out, still parsing JSON', async () => {
    const raw: Tool = {
      ...add,
      name: 'raw',
      validateArguments: false,
      execute: (args) => JSON.stringify(args),
    };
    const { engine, llm } = engineWith(
      [
        {
          toolCalls: [
            { name: 'raw', arguments: { a: 'two' } },
            { name: 'raw', arguments: 'nope' },
          ],
        },
        { content: 'ok' },
      ],
      [raw],
    );
    engine.registerWorkflow(oneLLM({}, ['raw']));
    await engine.run('one', { input: 'x' });
    const tools = llm.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toBe('{"a":"two"}');
    expect(tools[1]).toMatch(/^Error \[TOOL_ARGUMENTS_INVALID\]: .*not valid JSON/);
  });

  it('honours isEnabled per thread', async () => {
    const gated: Tool = {
      ...add,
      name: 'gated',
      isEnabled: ({ variables }) => variables.vip === true,
    };
    const { engine, llm } = engineWith(
      new ScriptedLLMClient([{ content: 'x' }], { whenExhausted: 'repeat-last' }),
      [add, gated],
    );
    engine.registerWorkflow(oneLLM({}, ['add', 'gated']));
    await engine.run('one', { input: 'a', variables: { vip: false } });
    await engine.run('one', { input: 'b', variables: { vip: true } });
    expect(llm.requests.map((r) => r.tools.map((t) => t.name))).toEqual([
      ['add'],
      ['add', 'gated'],
    ]);
  });
});

describe('cancellation', () => {
  it('an abort mid-stream cancels the thread and leaves the conversation as it was', async () => {
    const { engine, llm } = engineWith([
      { content: 'a long answer that streams slowly', tokenDelayMs: 15 },
    ]);
    engine.registerWorkflow(oneLLM());
    const controller = new AbortController();
    const tokens = collect(engine, 'llm:token');
    engine.events.on('llm:token', () => {
      if (tokens.length === 2) controller.abort();
    });
    const thread = engine.createThread('one', { input: 'talk' });
    const result = await engine.execute(thread, { signal: controller.signal });
    expect(result.status).toBe('CANCELLED');
    expect(result.error?.code).toBe('THREAD_CANCELLED');
    expect(tokens.length).toBe(2);
    expect(llm.calls[0]!.options.signal).toBe(controller.signal);
    expect(thread.conversation.getMessages().some((m) => m.role === 'assistant')).toBe(false);
  });

  it('an abort reaches running tools', async () => {
    let toolSawAbort = false;
    const waiter: Tool = {
      name: 'wait',
      description: 'waits for abort',
      parameters: { type: 'object' },
      execute: (_a, { signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            toolSawAbort = true;
            reject(new Error('stopped'));
          }),
        ),
    };
    const { engine } = engineWith([{ toolCalls: [{ name: 'wait', arguments: {} }] }], [waiter]);
    engine.registerWorkflow(oneLLM({}, ['wait']));
    const controller = new AbortController();
    engine.events.on('tool:call', () => setTimeout(() => controller.abort(), 5));
    const result = await engine.run('one', { input: 'x', signal: controller.signal });
    expect(result.result.status).toBe('CANCELLED');
    expect(toolSawAbort).toBe(true);
  });

  it('maxSteps bounds the loop and the thread can continue afterwards', async () => {
    const def = new WorkflowBuilder('spin', '1')
      .variables({ defaults: { n: 0 } })
      .start()
      .variable('inc', { assign: { n: 'vars.n + 1' } })
      .end('end', { output: 'vars.n' })
      .edge('start', 'inc')
      .edge('inc', 'inc', { when: 'vars.n < 100' })
      .edge('inc', 'end')
      .build();
    const { engine } = engineWith([]);
    engine.registerWorkflow(def);
    const thread = engine.createThread('spin');
    const first = await engine.execute(thread, { maxSteps: 10 });
    expect(first.status).toBe('FAILED');
    expect(first.error?.code).toBe('MAX_STEPS_EXCEEDED');
    expect(thread.variables.n).toBe(9);
    const rest = await engine.execute(thread, { maxSteps: 1000 });
    expect(rest).toMatchObject({ status: 'COMPLETED', output: 100 });
  });
});

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
    const first = await engine.execute(thread);
    expect(first.status).toBe('PAUSED');
    expect(first.pending).toEqual({ kind: 'user-input', nodeId: 'confirm', prompt: 'Book Rome?' });
    expect(paused).toHaveLength(1);
    await expect(engine.execute(thread)).rejects.toThrow(/waits for input/);
    await expect(engine.resume(thread, undefined)).rejects.toThrow(/input is missing/);
    const done = await engine.resume(thread, 'yes');
    expect(done).toMatchObject({ status: 'COMPLETED', output: true });
    expect(thread.conversation.getMessages().at(-1)).toMatchObject({
      role: 'user',
      content: 'yes',
    });
    await expect(engine.resume(thread, 'again')).rejects.toThrow(/only a PAUSED thread/);
  });

  it('a tool that needs approval pauses the thread before it runs', async () => {
    let charged = 0;
    const charge: Tool<{ amount: number }> = {
      name: 'charge',
      description: 'charges a card',
      parameters: { type: 'object', properties: { amount: { type: 'number' } } },
      needsApproval: (args) => args.amount > 100,
      execute: ({ amount }) => {
        charged += amount;
        return `charged ${amount}`;
      },
    };
    const { engine, llm } = engineWith(
      [
        {
          toolCalls: [
            { name: 'charge', arguments: { amount: 50 } },
            { name: 'charge', arguments: { amount: 500 } },
          ],
        },
        { content: 'done' },
      ],
      [charge],
    );
    engine.registerWorkflow(oneLLM({}, ['charge']));
    const thread = engine.createThread('one', { input: 'pay' });
    const first = await engine.execute(thread);
    expect(first.status).toBe('PAUSED');
    expect(first.pending).toMatchObject({ kind: 'tool-approval', awaiting: ['call_3_1'] });
    expect(charged).toBe(0);
    await expect(engine.resume(thread, { approvals: {} })).rejects.toThrow(
      /no decision for tool call call_3_1/,
    );
    expect(thread.status).toBe('PAUSED');
    const done = await engine.resume(thread, { approvals: { call_3_1: false } });
    expect(done.status).toBe('COMPLETED');
    expect(charged).toBe(50);
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
