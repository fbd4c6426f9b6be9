import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { type Tool, ToolExecutionError } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { instrumentSkein } from './index.js';
import { startTracing } from './test-support/tracing.js';
import { MODEL, travelEngine } from './test-support/travel.js';

function exceptionOf(span: ReadableSpan) {
  const events = span.events.filter((e) => e.name === 'exception');
  expect(events, span.name).toHaveLength(1);
  return events[0]!.attributes ?? {};
}

const broken: Tool<Record<string, never>> = {
  name: 'book_hotel',
  description: 'Books a hotel',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: () => {
    throw new ToolExecutionError('the hotel API is down');
  },
};

describe('errors', () => {
  it('marks a failed tool call as an error and the thread carries on', async () => {
    const tracing = startTracing();
    const engine = travelEngine(
      [
        { toolCalls: [{ id: 'call_hotel', name: 'book_hotel' }] },
        { content: 'The hotel could not be booked.' },
      ],
      [broken as Tool<never>],
    );
    instrumentSkein(engine, { tracer: tracing.tracer });
    const { result } = await engine.run('travel');
    expect(result.status).toBe('PAUSED');
    const tool = tracing.span('execute_tool book_hotel');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'the hotel API is down' });
    expect(tool.attributes['error.type']).toBe('TOOL_FAILED');
    expect(tool.attributes['skein.tool.is_error']).toBe(true);
    expect(exceptionOf(tool)).toMatchObject({
      'exception.type': 'TOOL_FAILED',
      'exception.message': 'the hotel API is down',
    });
    // The model read the error and answered: the node and the thread are fine.
    expect(tracing.span('invoke_agent plan').status.code).toBe(SpanStatusCode.OK);
    expect(tracing.span('invoke_workflow travel').status.code).toBe(SpanStatusCode.OK);
  });

  it('ends the model call, the node and the thread with the node failure', async () => {
    const tracing = startTracing();
    // One turn only: the second model call finds the script exhausted and the node fails.
    const engine = travelEngine([
      { toolCalls: [{ id: 'call_calc', name: 'calculator', arguments: { expression: '2 * 3' } }] },
    ]);
    instrumentSkein(engine, { tracer: tracing.tracer });
    const { result } = await engine.run('travel');
    expect(result.status).toBe('FAILED');
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
              leaf(`chat ${MODEL}`),
            ],
          },
        ],
      },
    ]);
    const failedChat = tracing.spans().filter((s) => s.name === `chat ${MODEL}`)[1];
    const node = tracing.span('invoke_agent plan');
    const thread = tracing.span('invoke_workflow travel');
    const code = String(node.attributes['error.type']);
    expect(code).toBe('LLM_CALL_FAILED');
    for (const span of [failedChat!, node, thread]) {
      expect(span.status.code, span.name).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type'], span.name).toBe(code);
      expect(exceptionOf(span)['exception.type'], span.name).toBe(code);
    }
    expect(thread.attributes['skein.thread.status']).toBe('FAILED');
    expect(tracing.span('execute_tool calculator').status.code).toBe(SpanStatusCode.OK);
  });
});

describe('abort', () => {
  it('ends the spans still open with an error status', async () => {
    const tracing = startTracing();
    const controller = new AbortController();
    const stuck: Tool<Record<string, never>> = {
      name: 'wait_for_agent',
      description: 'Waits for a travel agent to answer',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      // Aborts the run while it is running, then never answers.
      execute: () => {
        controller.abort();
        return new Promise<string>(() => {});
      },
    };
    const engine = travelEngine(
      [{ toolCalls: [{ id: 'call_wait', name: 'wait_for_agent' }] }, { content: 'never asked' }],
      [stuck as Tool<never>],
    );
    instrumentSkein(engine, { tracer: tracing.tracer });
    const { result } = await engine.run('travel', { signal: controller.signal });
    expect(result.status).toBe('CANCELLED');
    const thread = tracing.span('invoke_workflow travel');
    expect(thread.attributes['skein.thread.status']).toBe('CANCELLED');
    const code = String(thread.attributes['error.type']);
    expect(code).toBe('THREAD_CANCELLED');
    for (const name of [
      'execute_tool wait_for_agent',
      'invoke_agent plan',
      'invoke_workflow travel',
    ]) {
      const span = tracing.span(name);
      expect(span.status.code, name).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type'], name).toBe(code);
    }
    expect(tracing.span(`chat ${MODEL}`).status.code).toBe(SpanStatusCode.OK);
    expect(tracing.spans()).toHaveLength(5);
  });
});
