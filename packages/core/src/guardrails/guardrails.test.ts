import type { LLMClient } from '@skein/spec';
import { contentText } from '@skein/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { GuardrailVerdictEvent } from '../events/event-map.js';
import { chargeTool, oneLLM } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptStep } from '../testing/types.js';
import type { Tool } from '../tools/tool.js';
import type { WorkflowDefinition } from '../workflow/types.js';
import type { Guardrail, GuardrailNames } from './guardrail.js';
import { modelGuardrail } from './model-guardrail.js';

/** Trips on any user message mentioning the weather. */
const offTopic: Guardrail = {
  stages: ['input'],
  check: (subject) =>
    subject.stage === 'input' &&
    subject.messages.some((m) => /weather/i.test(contentText(m.content)))
      ? { action: 'trip', reason: 'off topic' }
      : { action: 'pass' },
};

/** Trips on an answer that gives away a secret. */
const noSecrets: Guardrail = {
  stages: ['output'],
  check: (subject) =>
    subject.stage === 'output' && contentText(subject.message.content).includes('SECRET')
      ? { action: 'trip', reason: 'the answer holds a secret' }
      : { action: 'pass' },
};

/** Redacts e-mail addresses from tool results. */
const pii: Guardrail = {
  stages: ['tool-result'],
  check: (subject) => {
    if (subject.stage !== 'tool-result') return { action: 'pass' };
    const text = contentText(subject.result.content);
    const redacted = text.replace(/[\w.]+@[\w.]+/g, '[email]');
    return redacted === text ? { action: 'pass' } : { action: 'redact', content: redacted };
  },
};

/** Refuses charges over 800, trips on negative ones. */
const chargeLimit: Guardrail = {
  stages: ['tool-call'],
  check: (subject) => {
    if (subject.stage !== 'tool-call') return { action: 'pass' };
    const { amount } = subject.call.arguments as { amount: number };
    if (amount < 0) return { action: 'trip', reason: 'a negative charge' };
    return amount > 800 ? { action: 'refuse', reason: 'over 800' } : { action: 'pass' };
  },
};

const lookup: Tool = {
  name: 'lookup',
  description: 'finds a customer',
  parameters: { type: 'object', properties: {} },
  execute: () => 'Ada, ada@example.com',
};

function setup(
  script: readonly ScriptStep[],
  guardrails: GuardrailNames,
  extra: Record<string, Guardrail> = {},
  tools: Tool[] = [lookup],
) {
  const llm = new ScriptedLLMClient(script);
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({
    llm,
    store,
    guardrails: { offTopic, noSecrets, pii, chargeLimit, ...extra },
  });
  engine.registerTools(tools);
  // No prompt template: the user's messages are the conversation (as in a chat).
  const workflow: WorkflowDefinition = {
    ...oneLLM(
      { prompt: undefined },
      tools.map((t) => t.name),
    ),
    guardrails,
  };
  engine.registerWorkflow(workflow);
  const verdicts: GuardrailVerdictEvent[] = [];
  engine.events.on('guardrail:verdict', (e) => verdicts.push(e));
  return { engine, llm, store, verdicts };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('input guardrails', () => {
  it('trip before the model is called: GUARDRAIL_TRIPPED stored, the model never asked', async () => {
    const { engine, llm, verdicts } = setup([{ content: 'sunny' }], { input: ['offTopic'] });
    const { thread, result } = await engine.run('one', { input: 'what is the weather?' });
    expect(result.status).toBe('FAILED');
    expect(result.error).toMatchObject({
      code: 'GUARDRAIL_TRIPPED',
      guardrail: 'offTopic',
      stage: 'input',
      reason: 'off topic',
    });
    expect(thread.state.error?.guardrail).toEqual({
      name: 'offTopic',
      stage: 'input',
      reason: 'off topic',
    });
    expect(llm.requests).toHaveLength(0);
    expect(verdicts).toEqual([expect.objectContaining({ guardrail: 'offTopic', action: 'trip' })]);
  });

  it('leave a passed message alone on later turns: each user message is checked once', async () => {
    const seen: string[][] = [];
    const counting: Guardrail = {
      stages: ['input'],
      check: (subject) => {
        if (subject.stage === 'input')
          seen.push(subject.messages.map((m) => contentText(m.content)));
        return { action: 'pass' };
      },
    };
    const { engine } = setup(
      [{ content: 'a' }, { content: 'b' }],
      { input: ['counting'] },
      {
        counting,
      },
    );
    const { thread } = await engine.run('one', { input: 'first', threadId: 'chat' });
    await engine.send(thread.threadId, { role: 'user', content: 'second' });
    expect(seen).toEqual([['first'], ['second']]);
  });

  it('a thread resumed after an approval does not check the same input again', async () => {
    let checks = 0;
    const counting: Guardrail = {
      stages: ['input'],
      check: () => {
        checks++;
        return { action: 'pass' };
      },
    };
    const charged: number[] = [];
    const { engine } = setup(
      [
        { toolCalls: [{ id: 'big', name: 'charge', arguments: { amount: 500 } }] },
        { content: 'ok' },
      ],
      { input: ['counting'] },
      { counting },
      [chargeTool(charged) as unknown as Tool],
    );
    const { thread, result } = await engine.run('one', { input: 'pay 500', threadId: 'p' });
    expect(result.status).toBe('PAUSED');
    expect(thread.state.guarded).toEqual({ counting: expect.any(Number) });
    const loaded = await engine.getThread('p');
    const { result: done } = await engine.resume(loaded!, {
      approvals: { big: { approved: true } },
    });
    expect(done.status).toBe('COMPLETED');
    expect(charged).toEqual([500]);
    expect(checks).toBe(1);
  });

  it('see the parts of a message: an image a guardrail refuses trips the turn', async () => {
    const noImages: Guardrail = {
      stages: ['input'],
      check: (subject) =>
        subject.stage === 'input' &&
        subject.messages.some(
          (m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'image'),
        )
          ? { action: 'trip', reason: 'no images here' }
          : { action: 'pass' },
    };
    const { engine, llm } = setup([{ content: 'x' }], { input: ['noImages'] }, { noImages });
    const { result } = await engine.send(
      'pic',
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
      },
      { workflowId: 'one' },
    );
    expect(result.error).toMatchObject({ code: 'GUARDRAIL_TRIPPED', reason: 'no images here' });
    expect(llm.requests).toHaveLength(0);
  });

  it('a recovered thread does not check again what it passed before the crash', async () => {
    let checks = 0;
    const counting: Guardrail = {
      stages: ['input'],
      check: () => {
        checks++;
        return { action: 'pass' };
      },
    };
    const store = new InMemoryCheckpointStore();
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
    const workflow: WorkflowDefinition = {
      id: 'two',
      version: '1',
      guardrails: { input: ['counting'] },
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'first', type: 'LLM' },
        { id: 'second', type: 'LLM' },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'first' },
        { from: 'first', to: 'second' },
        { from: 'second', to: 'end' },
      ],
    };
    // The first process passes the input at `first`, then dies while `second` waits on its model.
    const dying = new SkeinEngine({
      llm: new ScriptedLLMClient([{ content: 'one' }, { hang: true }]),
      store,
      owner: 'dying',
      now: () => clock.now,
      guardrails: { counting },
    });
    dying.registerWorkflow(workflow);
    const controller = new AbortController();
    const dyingRun = dying.run('two', { input: 'hello', threadId: 'r', signal: controller.signal });
    await vi.waitFor(async () => expect((await store.load('r'))?.state.step).toBe(2));
    expect(checks).toBe(1);
    clock.now += 60_000;
    const next = new SkeinEngine({
      llm: new ScriptedLLMClient([{ content: 'two' }]),
      store,
      owner: 'next',
      now: () => clock.now,
      guardrails: { counting },
    });
    next.registerWorkflow(workflow);
    const [run] = await next.recover();
    expect(await run!.result).toMatchObject({ status: 'COMPLETED', output: 'two' });
    expect(checks).toBe(1);
    // The process that "died" cannot write over the thread the next one took.
    controller.abort();
    await expect(dyingRun).rejects.toMatchObject({
      code: expect.stringMatching(/^(CHECKPOINT_CONFLICT|THREAD_LEASED)$/),
    });
    next.close();
    dying.close();
  });

  it('a trip ends the turn; the next message starts a new one, without the tripping message', async () => {
    const { engine, llm } = setup([{ content: 'hello' }], { input: ['offTopic'] });
    const { thread } = await engine.run('one', { input: 'weather?', threadId: 'chat' });
    expect(thread.status).toBe('FAILED');
    const next = await engine.send('chat', { role: 'user', content: 'hi' });
    expect(next.result.status).toBe('COMPLETED');
    const sent = llm.requests[0]!.messages.map((m) => contentText(m.content));
    expect(sent.join('\n')).not.toMatch(/weather\?$/m);
    expect(sent.some((t) => t.startsWith('[withheld: guardrail "offTopic"'))).toBe(true);
    // The tripping message is still stored.
    const all = next.thread.conversation.getAllMessages().map((m) => contentText(m.content));
    expect(all).toContain('weather?');
  });

  it('endsChat: the next message is refused with the trip', async () => {
    const ender: Guardrail = {
      stages: ['input'],
      check: () => ({ action: 'trip', reason: 'abuse', endsChat: true }),
    };
    const { engine } = setup([{ content: 'x' }], { input: ['ender'] }, { ender });
    await engine.run('one', { input: 'go away', threadId: 'chat' });
    await expect(engine.send('chat', { role: 'user', content: 'hi' })).rejects.toMatchObject({
      code: 'GUARDRAIL_TRIPPED',
      guardrail: 'ender',
    });
  });

  it('no execute, resume or recover runs past a trip', async () => {
    const { engine, store } = setup([{ content: 'x' }], { input: ['offTopic'] });
    const { thread } = await engine.run('one', { input: 'weather', threadId: 't' });
    await expect(engine.run(thread)).rejects.toMatchObject({ code: 'GUARDRAIL_TRIPPED' });
    await expect(engine.resume(thread, 'yes')).rejects.toMatchObject({
      code: 'GUARDRAIL_TRIPPED',
    });
    const loaded = await engine.getThread('t');
    await expect(engine.run(loaded!)).rejects.toMatchObject({ code: 'GUARDRAIL_TRIPPED' });
    await engine.recover();
    expect((await store.load('t'))?.state.status).toBe('FAILED');
  });

  it('beside the model call: a trip cancels the call and its answer is never added', async () => {
    let release!: () => void;
    const slow: Guardrail = {
      stages: ['input'],
      beside: true,
      check: () =>
        new Promise((resolve) => {
          release = () => resolve({ action: 'trip', reason: 'late no' });
        }),
    };
    const { engine, llm } = setup([{ hang: true }], { input: ['slow'] }, { slow });
    const running = engine.run('one', { input: 'hi' });
    await vi.waitFor(() => expect(llm.requests).toHaveLength(1));
    release();
    const { thread, result } = await running;
    expect(result.error?.code).toBe('GUARDRAIL_TRIPPED');
    expect(llm.calls[0]!.options.signal?.aborted).toBe(true);
    expect(thread.conversation.getMessages().some((m) => m.role === 'assistant')).toBe(false);
  });

  it('beside: an answer that comes first waits for the check', async () => {
    let release!: () => void;
    const slow: Guardrail = {
      stages: ['input'],
      beside: true,
      check: () =>
        new Promise((resolve) => {
          release = () => resolve({ action: 'pass' });
        }),
    };
    const { engine, llm } = setup([{ content: 'fine' }], { input: ['slow'] }, { slow });
    const completed: string[] = [];
    engine.events.on('llm:response', () => completed.push('response'));
    const running = engine.run('one', { input: 'hi' });
    await vi.waitFor(() => expect(llm.requests).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 0));
    expect(completed).toEqual([]);
    release();
    const { result } = await running;
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toBe('fine');
  });

  it('see messages that arrive mid-run (steer) before the next model call', async () => {
    const store = new InMemoryCheckpointStore();
    let gate!: () => void;
    const slowTool: Tool = {
      name: 'slow',
      description: 'waits',
      parameters: { type: 'object', properties: {} },
      execute: () => new Promise<string>((resolve) => (gate = () => resolve('done'))),
    };
    const llm = new ScriptedLLMClient([
      { toolCalls: [{ name: 'slow', arguments: {} }] },
      { content: 'never' },
    ]);
    const engine = new SkeinEngine({ llm, store, guardrails: { offTopic } });
    engine.registerTools([slowTool]);
    engine.registerWorkflow({ ...oneLLM({}, ['slow']), guardrails: { input: ['offTopic'] } });
    const first = engine.send('c', { role: 'user', content: 'do it' }, { workflowId: 'one' });
    await vi.waitFor(() => expect(gate).toBeTypeOf('function'));
    const steer = engine.send(
      'c',
      { role: 'user', content: 'and the weather?' },
      { workflowId: 'one', ifBusy: 'steer' },
    );
    await vi.waitFor(async () => expect(await store.pendingMessages!('c')).toHaveLength(1));
    gate();
    const { result } = await first;
    expect(result.status).toBe('FAILED');
    expect(result.error?.code).toBe('GUARDRAIL_TRIPPED');
    expect(llm.requests).toHaveLength(1);
    await steer.catch(() => undefined);
  });
});

describe('output guardrails', () => {
  it('trip on the final answer: it is never added to the conversation', async () => {
    const { engine } = setup([{ content: 'the SECRET is 42' }], { output: ['noSecrets'] });
    const { thread, result } = await engine.run('one', { input: 'tell me' });
    expect(result.error).toMatchObject({ code: 'GUARDRAIL_TRIPPED', stage: 'output' });
    const texts = thread.conversation.getAllMessages().map((m) => contentText(m.content));
    expect(texts).not.toContain('the SECRET is 42');
  });

  it('pass an answer that holds nothing to stop; llm:response comes after the check', async () => {
    const order: string[] = [];
    const watching: Guardrail = {
      stages: ['output'],
      check: () => {
        order.push('check');
        return { action: 'pass' };
      },
    };
    const { engine } = setup([{ content: 'ok' }], { output: ['watching'] }, { watching });
    engine.events.on('llm:response', () => order.push('response'));
    const { result } = await engine.run('one', { input: 'tell me' });
    expect(result.output).toBe('ok');
    expect(order).toEqual(['check', 'response']);
  });
});

describe('tool guardrails', () => {
  it('redact a result before the model sees it', async () => {
    const { engine, llm, verdicts } = setup(
      [{ toolCalls: [{ name: 'lookup', arguments: {} }] }, { content: 'found' }],
      { toolResult: ['pii'] },
    );
    const heard: unknown[] = [];
    engine.events.on('tool:result', (e) => heard.push(e));
    const { result } = await engine.run('one', { input: 'who?' });
    expect(result.status).toBe('COMPLETED');
    const tool = llm.requests[1]!.messages.find((m) => m.role === 'tool')!;
    expect(tool.content).toBe('Ada, [email]');
    // Listeners (a UI stream, spans) hear the result only as the model sees it.
    expect(heard).toEqual([expect.objectContaining({ content: 'Ada, [email]', isError: false })]);
    expect(verdicts).toEqual([
      expect.objectContaining({ guardrail: 'pii', action: 'redact', toolName: 'lookup' }),
    ]);
  });

  it('named on the tool itself, wherever a model calls it', async () => {
    const guardedLookup: Tool = { ...lookup, guardrails: { result: ['pii'] } };
    const { engine, llm } = setup(
      [{ toolCalls: [{ name: 'lookup', arguments: {} }] }, { content: 'found' }],
      {},
      {},
      [guardedLookup],
    );
    await engine.run('one', { input: 'who?' });
    expect(llm.requests[1]!.messages.find((m) => m.role === 'tool')!.content).toBe('Ada, [email]');
  });

  it('refuse a call with a reason the model sees, and run before approvals', async () => {
    const charged: number[] = [];
    const { engine, llm } = setup(
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
      { toolCall: ['chargeLimit'] },
      {},
      [chargeTool(charged) as unknown as Tool],
    );
    const { thread, result } = await engine.run('one', { input: 'pay' });
    expect(result.status).toBe('PAUSED');
    // 900 needs approval but is refused first: nobody is asked about it.
    expect(result.approvals?.map((a) => a.toolCallId)).toEqual(['big']);
    const { result: done } = await engine.resume(thread, {
      approvals: { big: { approved: true } },
    });
    expect(done.status).toBe('COMPLETED');
    expect(charged).toEqual([50, 500]);
    const results = llm.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.toolCallId)).toEqual(['small', 'big', 'huge']);
    expect(results[2]!.content).toMatch(/TOOL_REFUSED.*"chargeLimit": over 800/);
  });

  it('a trip on a call: the tool never runs, the run ends typed', async () => {
    const charged: number[] = [];
    const { engine } = setup(
      [{ toolCalls: [{ name: 'charge', arguments: { amount: -5 } }] }],
      { toolCall: ['chargeLimit'] },
      {},
      [chargeTool(charged) as unknown as Tool],
    );
    const { result } = await engine.run('one', { input: 'refund' });
    expect(result.error).toMatchObject({
      code: 'GUARDRAIL_TRIPPED',
      stage: 'tool-call',
      toolName: 'charge',
    });
    expect(charged).toEqual([]);
  });
});

describe('hostile guardrails end the thread typed, never hung, never running the tool', () => {
  function hostile(check: Guardrail['check'], timeoutMs?: number, tries = 1) {
    const charged: number[] = [];
    const bad: Guardrail = {
      stages: ['tool-call'],
      check,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    };
    const { engine } = setup(
      [
        ...Array.from({ length: tries }, () => ({
          toolCalls: [{ name: 'charge', arguments: { amount: 5 } }],
        })),
        { content: 'x' },
      ],
      { toolCall: ['bad'] },
      { bad },
      [chargeTool(charged) as unknown as Tool],
    );
    return { engine, charged };
  }

  it('one that throws', async () => {
    const { engine, charged } = hostile(() => {
      throw new Error('boom');
    });
    const { result } = await engine.run('one', { input: 'pay' });
    expect(result.status).toBe('FAILED');
    expect(result.error).toMatchObject({ code: 'GUARDRAIL_FAILED', guardrail: 'bad' });
    expect(result.error?.message).toMatch(/boom/);
    expect(charged).toEqual([]);
  });

  it('one that never answers: its time limit fails the run', async () => {
    vi.useFakeTimers();
    const { engine, charged } = hostile(() => new Promise(() => {}), 5_000);
    const running = engine.run('one', { input: 'pay' });
    await vi.advanceTimersByTimeAsync(5_000);
    const { result } = await running;
    expect(result.error).toMatchObject({ code: 'GUARDRAIL_FAILED' });
    expect(result.error?.message).toMatch(/did not answer within 5000 ms/);
    expect(charged).toEqual([]);
  });

  it('one that answers no verdict', async () => {
    const { engine, charged } = hostile(
      () => ({ action: 'redact', content: 'x' }) as unknown as ReturnType<Guardrail['check']>,
    );
    const { result } = await engine.run('one', { input: 'pay' });
    expect(result.error?.message).toMatch(/not one of pass, trip, refuse/);
    expect(charged).toEqual([]);
  });

  it('one whose model call fails', async () => {
    const failing: LLMClient = {
      name: 'down',
      generate: () => Promise.reject(new Error('503 from the classifier')),
    };
    const charged: number[] = [];
    const { engine } = setup(
      [{ toolCalls: [{ name: 'charge', arguments: { amount: 5 } }] }, { content: 'x' }],
      { toolCall: ['classifier'] },
      {
        classifier: modelGuardrail({
          llm: failing,
          instructions: 'stop charges',
          stages: ['tool-call'],
        }),
      },
      [chargeTool(charged) as unknown as Tool],
    );
    const { result } = await engine.run('one', { input: 'pay' });
    expect(result.error).toMatchObject({ code: 'GUARDRAIL_FAILED', guardrail: 'classifier' });
    expect(result.error?.message).toMatch(/503/);
    expect(charged).toEqual([]);
  });

  it('a failure is not a trip: running again checks again', async () => {
    let calls = 0;
    const { engine, charged } = hostile(
      () => {
        calls++;
        if (calls === 1) throw new Error('flaky');
        return { action: 'pass' };
      },
      undefined,
      2,
    );
    const { thread } = await engine.run('one', { input: 'pay' });
    const { result: again } = await engine.run(thread);
    expect(again.status).toBe('COMPLETED');
    expect(charged).toEqual([5]);
  });
});

describe('a model guardrail', () => {
  it('asks a classifier, reads its verdict strictly, and trips with its reason', async () => {
    const classifier = new ScriptedLLMClient([
      { content: '{"verdict":"trip","reason":"asks about the weather"}' },
    ]);
    const { engine } = setup(
      [{ content: 'x' }],
      { input: ['topic'] },
      {
        topic: modelGuardrail({ llm: classifier, instructions: 'Only billing questions.' }),
      },
    );
    const { result } = await engine.run('one', { input: 'rain tomorrow?' });
    expect(result.error).toMatchObject({
      code: 'GUARDRAIL_TRIPPED',
      reason: 'asks about the weather',
    });
    const asked = classifier.requests[0]!;
    expect(contentText(asked.messages[0]!.content)).toMatch(/^Only billing questions\./);
    expect(contentText(asked.messages[1]!.content)).toMatch(/rain tomorrow\?/);
    expect(asked.responseFormat?.type).toBe('json');
  });

  it('an answer that is not a verdict fails the check, never passes it', async () => {
    const classifier = new ScriptedLLMClient([{ content: 'Sure, looks fine to me!' }]);
    const { engine, llm } = setup(
      [{ content: 'x' }],
      { input: ['topic'] },
      {
        topic: modelGuardrail({ llm: classifier, instructions: 'Only billing questions.' }),
      },
    );
    const { result } = await engine.run('one', { input: 'hi' });
    expect(result.error).toMatchObject({ code: 'GUARDRAIL_FAILED' });
    expect(llm.requests).toHaveLength(0);
  });
});

describe('registration', () => {
  it('a workflow naming an unknown guardrail, or one for another stage, is refused', () => {
    const engine = new SkeinEngine({ guardrails: { offTopic } });
    engine.registerTools([lookup]);
    expect(() =>
      engine.registerWorkflow({
        ...oneLLM({ guardrails: { output: ['offTopic'] } }, ['lookup']),
        guardrails: { input: ['nope'] },
      }),
    ).toThrow(
      expect.objectContaining({
        issues: [
          expect.objectContaining({
            code: 'UNKNOWN_GUARDRAIL',
            path: 'nodes[1].config.guardrails.output[0]',
          }),
          expect.objectContaining({ code: 'UNKNOWN_GUARDRAIL', path: 'guardrails.input[0]' }),
        ],
      }),
    );
  });

  it('a guardrail definition that cannot run is refused when registered', () => {
    expect(
      () =>
        new SkeinEngine({ guardrails: { x: { stages: [], check: () => ({ action: 'pass' }) } } }),
    ).toThrow(/at least one stage/);
    expect(
      () =>
        new SkeinEngine({
          guardrails: {
            x: { stages: ['output'], beside: true, check: () => ({ action: 'pass' }) },
          },
        }),
    ).toThrow(/input guardrails only/);
  });
});

describe('on a branch', () => {
  it('a trip in a branch trips the parent, whatever the JOIN collects', async () => {
    const llm = new ScriptedLLMClient([{ content: 'a SECRET' }, { content: 'fine' }]);
    const engine = new SkeinEngine({ llm, guardrails: { noSecrets } });
    engine.registerWorkflow({
      id: 'fan',
      version: '1',
      guardrails: { output: ['noSecrets'] },
      nodes: [
        { id: 'start', type: 'START' },
        {
          id: 'split',
          type: 'PARALLEL',
          config: {
            branches: [
              { name: 'a', start: 'a' },
              { name: 'b', start: 'b' },
            ],
            join: 'join',
          },
        },
        { id: 'a', type: 'LLM', config: { prompt: 'one' } },
        { id: 'b', type: 'LLM', config: { prompt: 'two' } },
        { id: 'join', type: 'JOIN', config: { onError: 'collect' } },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'split' },
        { from: 'a', to: 'join' },
        { from: 'b', to: 'join' },
        { from: 'join', to: 'end' },
      ],
    });
    const { thread, result } = await engine.run('fan', { input: 'go' });
    expect(result.error).toMatchObject({ code: 'GUARDRAIL_TRIPPED', guardrail: 'noSecrets' });
    await expect(engine.run(thread)).rejects.toMatchObject({ code: 'GUARDRAIL_TRIPPED' });
  });
});
