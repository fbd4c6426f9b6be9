import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { SkeinEmitter } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { InvalidOtelOptionError, instrumentSkein } from './index.js';
import { startTracing } from './test-support/tracing.js';
import { MODEL, travelEngine } from './test-support/travel.js';

const CONTENT_KEYS = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.tool.definitions',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
];

async function tracedRun(captureContent?: boolean) {
  const tracing = startTracing();
  const engine = travelEngine();
  instrumentSkein(engine, {
    tracer: tracing.tracer,
    ...(captureContent === undefined ? {} : { captureContent }),
  });
  const { thread, result } = await engine.run('travel', { threadId: 'trip-1' });
  return { tracing, engine, thread, result };
}

describe('instrumentSkein on the travel workflow', () => {
  it('nests thread > node > model and tool calls, one trace', async () => {
    const { tracing, result } = await tracedRun();
    expect(result.status).toBe('PAUSED');
    const leaf = (name: string) => ({ name, children: [] });
    expect(tracing.tree()).toEqual([
      {
        name: 'invoke_workflow travel',
        children: [
          leaf('skein.node start'),
          {
            name: 'invoke_agent plan',
            children: [
              leaf(`chat ${MODEL}`),
              leaf('execute_tool calculator'),
              leaf('execute_tool lookup_destination'),
              leaf(`chat ${MODEL}`),
            ],
          },
          leaf('skein.node confirm'),
        ],
      },
    ]);
    const traceIds = new Set(tracing.spans().map((s) => s.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    for (const span of tracing.spans()) expect(span.status.code).toBe(SpanStatusCode.OK);
  });

  it('sets the GenAI attributes on each kind of span', async () => {
    const { tracing } = await tracedRun();
    const thread = tracing.span('invoke_workflow travel');
    expect(thread.kind).toBe(SpanKind.INTERNAL);
    expect(thread.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.conversation.id': 'trip-1',
      'gen_ai.workflow.name': 'travel',
      'skein.thread.id': 'trip-1',
      'skein.workflow.id': 'travel',
      'skein.workflow.version': '1.0.0',
      'skein.thread.status': 'PAUSED',
      'skein.pause.reason': 'user-input',
    });
    expect(tracing.span('invoke_agent plan').attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'plan',
      'gen_ai.conversation.id': 'trip-1',
      'skein.thread.id': 'trip-1',
      'skein.node.id': 'plan',
      'skein.node.type': 'LLM',
      'skein.node.step': 1,
      'skein.node.status': 'done',
      'skein.node.next': 'confirm',
    });
    expect(tracing.span('skein.node start').attributes).toEqual({
      'skein.thread.id': 'trip-1',
      'skein.node.id': 'start',
      'skein.node.type': 'START',
      'skein.node.step': 0,
      'skein.node.next': 'plan',
    });
    const chats = tracing.spans().filter((s) => s.name === `chat ${MODEL}`);
    expect(chats.map((s) => s.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(chats.map((s) => s.attributes)).toEqual([
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': MODEL,
        'gen_ai.conversation.id': 'trip-1',
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'gen_ai.usage.input_tokens': 40,
        'gen_ai.usage.output_tokens': 12,
        'skein.node.id': 'plan',
        'skein.llm.round': 0,
      },
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': MODEL,
        'gen_ai.conversation.id': 'trip-1',
        'gen_ai.response.finish_reasons': ['stop'],
        'gen_ai.usage.input_tokens': 90,
        'gen_ai.usage.output_tokens': 9,
        'skein.node.id': 'plan',
        'skein.llm.round': 1,
      },
    ]);
    const tool = tracing.span('execute_tool calculator');
    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(tool.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'calculator',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'call_calc',
      'skein.node.id': 'plan',
      'skein.tool.is_error': false,
    });
  });

  it('records no message content by default', async () => {
    const { tracing } = await tracedRun();
    for (const span of tracing.spans())
      for (const key of CONTENT_KEYS) expect(span.attributes, span.name).not.toHaveProperty(key);
    const off = await tracedRun(false);
    for (const span of off.tracing.spans())
      for (const key of CONTENT_KEYS) expect(span.attributes, span.name).not.toHaveProperty(key);
  });

  it('records prompts, completions, tool arguments and results with captureContent', async () => {
    const { tracing } = await tracedRun(true);
    const [first, second] = tracing.spans().filter((s) => s.name === `chat ${MODEL}`);
    const input = JSON.parse(String(first!.attributes['gen_ai.input.messages']));
    expect(input.slice(1)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'You are a travel assistant.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Plan four days in Lisbon.' }] },
    ]);
    const tools = JSON.parse(String(first!.attributes['gen_ai.tool.definitions']));
    expect(tools.map((t: { name: string }) => t.name)).toEqual([
      'calculator',
      'lookup_destination',
    ]);
    expect(JSON.parse(String(first!.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        finish_reason: 'tool_calls',
        parts: [
          {
            type: 'tool_call',
            id: 'call_calc',
            name: 'calculator',
            arguments: { expression: '4 * 95' },
          },
          {
            type: 'tool_call',
            id: 'call_look',
            name: 'lookup_destination',
            arguments: { city: 'Lisbon' },
          },
        ],
      },
    ]);
    const secondInput = JSON.parse(String(second!.attributes['gen_ai.input.messages']));
    expect(secondInput.at(-2)).toEqual({
      role: 'tool',
      parts: [{ type: 'tool_call_response', id: 'call_calc', response: '380' }],
    });
    expect(JSON.parse(String(second!.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        finish_reason: 'stop',
        parts: [{ type: 'text', content: 'Four days in Lisbon: 380 EUR.' }],
      },
    ]);
    const tool = tracing.span('execute_tool calculator');
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{"expression":"4 * 95"}');
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('380');
  });
});

describe('uninstrument', () => {
  it('removes every listener it added, and later runs record nothing', async () => {
    const tracing = startTracing();
    const engine = travelEngine();
    const own = () => {};
    engine.events.on('node:started', own);
    const before = engine.events
      .eventNames()
      .map((name) => [name, engine.events.listenerCount(name)]);
    const instrumentation = instrumentSkein(engine, { tracer: tracing.tracer });
    expect(engine.events.listenerCount('tool:call')).toBe(1);
    expect(engine.events.listenerCount('node:started')).toBe(2);
    instrumentation.uninstrument();
    instrumentation.uninstrument();
    const after = engine.events
      .eventNames()
      .map((name) => [name, engine.events.listenerCount(name)]);
    expect(after).toEqual(before);
    expect(engine.events.listeners('node:started')).toEqual([own]);
    await engine.run('travel');
    expect(tracing.spans()).toEqual([]);
  });

  it('ends the spans still open', () => {
    const tracing = startTracing();
    const events = new SkeinEmitter();
    const instrumentation = instrumentSkein({ events }, { tracer: tracing.tracer });
    events.emit('thread:started', { threadId: 't', workflowId: 'w', workflowVersion: '1' });
    events.emit('node:started', { threadId: 't', nodeId: 'n', nodeType: 'TOOL', step: 0 });
    expect(tracing.spans()).toEqual([]);
    instrumentation.uninstrument();
    expect(tracing.spans().map((s) => s.name)).toEqual(['skein.node n', 'invoke_workflow w']);
    expect(events.eventNames()).toEqual([]);
  });
});

describe('options', () => {
  it('refuses what it cannot use, naming the option', () => {
    const engine = travelEngine();
    const bad = [
      () => instrumentSkein({} as never),
      () => instrumentSkein(engine, { tracer: {} as never }),
      () => instrumentSkein(engine, { captureContent: 'yes' as never }),
    ];
    const options = bad.map((call) => {
      try {
        call();
        return 'no error';
      } catch (error) {
        expect(InvalidOtelOptionError.isInstance(error)).toBe(true);
        return (error as InvalidOtelOptionError).option;
      }
    });
    expect(options).toEqual(['engine', 'options.tracer', 'options.captureContent']);
    expect(engine.events.eventNames()).toEqual([]);
  });
});
