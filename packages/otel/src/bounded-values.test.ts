import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { type Tool, ToolExecutionError } from '@skein/core';
import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { InvalidOtelOptionError, instrumentSkein } from './index.js';
import { startTracing } from './test-support/tracing.js';
import { MODEL, travelEngine } from './test-support/travel.js';

const EIGHT_MB = 8 * 1024 * 1024;
const MARKER = /…\[truncated (\d+) chars\]$/;

/** The strings a span carries: attributes and array items, event and link attributes, status. */
function stringsOf(span: ReadableSpan): string[] {
  const found: string[] = [];
  const collect = (attributes: Record<string, unknown> | undefined) => {
    for (const value of Object.values(attributes ?? {})) {
      if (typeof value === 'string') found.push(value);
      else if (Array.isArray(value))
        for (const item of value) if (typeof item === 'string') found.push(item);
    }
  };
  collect(span.attributes);
  for (const event of span.events) collect(event.attributes);
  for (const link of span.links) collect(link.attributes);
  if (span.status.message !== undefined) found.push(span.status.message);
  return found;
}

function longest(spans: readonly ReadableSpan[]): number {
  return Math.max(...spans.flatMap(stringsOf).map((s) => s.length));
}

/** Checks `value` is `original` cut to exactly `limit` characters with the marker at the end. */
function expectCut(value: unknown, original: string, limit: number): void {
  expect(typeof value).toBe('string');
  const text = value as string;
  expect(text).toHaveLength(limit);
  const match = MARKER.exec(text);
  expect(match, text.slice(-60)).not.toBeNull();
  const kept = text.length - match![0].length;
  expect(text.slice(0, kept)).toBe(original.slice(0, kept));
  expect(kept + Number(match![1])).toBe(original.length);
}

function hugeTool(content: string): Tool<Record<string, never>> {
  return {
    name: 'fetch_page',
    description: 'Fetches a web page',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => content,
  };
}

describe('bounded values', () => {
  it('cuts an 8 MB tool result to 4,096 characters with a marker (content captured)', async () => {
    const page = `<html>${'x'.repeat(EIGHT_MB - 6)}`;
    const tracing = startTracing();
    const engine = travelEngine(
      [{ toolCalls: [{ id: 'call_page', name: 'fetch_page' }] }, { content: 'A long page.' }],
      [hugeTool(page) as Tool<never>],
    );
    instrumentSkein(engine, { tracer: tracing.tracer, captureContent: true });
    const { result } = await engine.run('travel');
    expect(result.status).toBe('PAUSED');
    const tool = tracing.span('execute_tool fetch_page');
    expectCut(tool.attributes['gen_ai.tool.call.result'], page, 4096);
    // The second model call sent the page back to the model: its prompt is cut the same way.
    const prompts = tracing.spans().filter((s) => s.name === `chat ${MODEL}`);
    expect(prompts).toHaveLength(2);
    const second = String(prompts[1]!.attributes['gen_ai.input.messages']);
    expect(second).toHaveLength(4096);
    expect(second).toMatch(MARKER);
    expect(longest(tracing.spans())).toBeLessThanOrEqual(4096);
  });

  it('cuts an 8 MB error message in the status and exception event (content off)', async () => {
    const message = `hotel API said: ${'e'.repeat(EIGHT_MB - 16)}`;
    const broken: Tool<Record<string, never>> = {
      name: 'book_hotel',
      description: 'Books a hotel',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => {
        throw new ToolExecutionError(message);
      },
    };
    const tracing = startTracing();
    const engine = travelEngine(
      [{ toolCalls: [{ id: 'call_hotel', name: 'book_hotel' }] }, { content: 'No hotel.' }],
      [broken as Tool<never>],
    );
    instrumentSkein(engine, { tracer: tracing.tracer });
    await engine.run('travel');
    const tool = tracing.span('execute_tool book_hotel');
    expect(tool.status.code).toBe(SpanStatusCode.ERROR);
    expectCut(tool.status.message, message, 4096);
    const exception = tool.events.find((e) => e.name === 'exception');
    expectCut(exception?.attributes?.['exception.message'], message, 4096);
    expect(longest(tracing.spans())).toBeLessThanOrEqual(4096);
  });

  it('cuts a failed node’s and thread’s 8 MB error message', async () => {
    const message = 'm'.repeat(EIGHT_MB);
    const tracing = startTracing();
    const engine = travelEngine([{ fail: new SkeinError('MODEL_MELTDOWN', message) }]);
    instrumentSkein(engine, { tracer: tracing.tracer });
    const { result } = await engine.run('travel');
    expect(result.status).toBe('FAILED');
    for (const name of ['invoke_workflow travel', 'invoke_agent plan', `chat ${MODEL}`]) {
      const span = tracing.span(name);
      expect(span.status.code, name).toBe(SpanStatusCode.ERROR);
      expect(span.status.message?.length, name).toBeLessThanOrEqual(4096);
      expect(span.status.message, name).toMatch(MARKER);
    }
    expect(longest(tracing.spans())).toBeLessThanOrEqual(4096);
  });

  it('takes its cap from maxAttributeLength, and Infinity turns it off', async () => {
    const page = 'p'.repeat(10_000);
    for (const maxAttributeLength of [100, Number.POSITIVE_INFINITY]) {
      const tracing = startTracing();
      const engine = travelEngine(
        [{ toolCalls: [{ id: 'call_page', name: 'fetch_page' }] }, { content: 'Read it.' }],
        [hugeTool(page) as Tool<never>],
      );
      instrumentSkein(engine, { tracer: tracing.tracer, captureContent: true, maxAttributeLength });
      await engine.run('travel');
      const recorded =
        tracing.span('execute_tool fetch_page').attributes['gen_ai.tool.call.result'];
      if (maxAttributeLength === 100) expectCut(recorded, page, 100);
      else expect(recorded).toBe(page);
    }
  });

  it('keeps the marker under a smaller SDK attributeValueLengthLimit', async () => {
    const page = 'q'.repeat(EIGHT_MB);
    const tracing = startTracing({ attributeValueLengthLimit: 300 });
    const engine = travelEngine(
      [{ toolCalls: [{ id: 'call_page', name: 'fetch_page' }] }, { content: 'Read it.' }],
      [hugeTool(page) as Tool<never>],
    );
    instrumentSkein(engine, { tracer: tracing.tracer, captureContent: true });
    await engine.run('travel');
    expectCut(
      tracing.span('execute_tool fetch_page').attributes['gen_ai.tool.call.result'],
      page,
      300,
    );
    // The SDK cuts attributes itself, silently; every value cut here was cut by us, marker kept.
    for (const value of tracing.spans().flatMap(stringsOf))
      if (value.length === 300) expect(value).toMatch(MARKER);
    expect(longest(tracing.spans())).toBeLessThanOrEqual(300);
  });

  it('rejects a maxAttributeLength that is not a positive whole number', () => {
    const engine = travelEngine();
    for (const bad of [0, -1, 2.5, Number.NaN, '4096']) {
      const attempt = () =>
        instrumentSkein(engine, {
          maxAttributeLength: bad as number,
          tracer: startTracing().tracer,
        });
      expect(attempt).toThrow(InvalidOtelOptionError);
      expect(attempt).toThrow(/options\.maxAttributeLength/);
    }
  });
});
