import { InvalidArgumentError, ProviderError, SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { OpenAIProviderError } from '../errors/provider-errors.js';
import { chunk } from './accumulator-test-chunks.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';

// Input a hostile or broken server can send: JSON nested deeper than anything downstream can
// handle (JSON.parse takes 100,000 levels; stringify, structuredClone and jsonrepair recurse and
// throw RangeError), shapes of the wrong kind, and streams that never stop.

const DEPTH = 100_000;
const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const deepValue = (): unknown => JSON.parse(deepArray);

function call(fields: Record<string, unknown>): unknown {
  return chunk({ tool_calls: [{ index: 0, id: 'c1', ...fields }] });
}

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('deeply nested JSON', () => {
  it.each([
    ['an array', deepArray],
    ['an object', `{"a":${deepArray}}`],
    ['broken JSON', `{"a":${deepArray.slice(0, -1)}`],
  ])(
    'answers arguments that are %s nested 100,000 deep with an error, never RangeError',
    (_, args) => {
      const accumulator = new ToolCallAccumulator();
      accumulator.push(call({ function: { name: 'f', arguments: args } }));
      const result = accumulator.finish();
      const [assembled] = result.toolCalls;
      expect(assembled!.error).toContain('nested deeper than 256 levels');
      expect(assembled!.arguments).toBe(args);
      expect(result.warnings.map((w) => w.code)).toEqual(['TOOL_CALL_ARGUMENTS_INVALID']);
    },
  );

  it('keeps arguments nested 256 deep, the most JSON state may hold', () => {
    const args = `{"a":${'['.repeat(255)}${']'.repeat(255)}}`;
    const accumulator = new ToolCallAccumulator();
    accumulator.push(call({ function: { name: 'f', arguments: args } }));
    expect(accumulator.finish().toolCalls[0]).toMatchObject({ arguments: args });
    expect(accumulator.finish().toolCalls[0]!.error).toBeUndefined();
  });

  it('answers non-string arguments nested too deep with an error', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push(call({ function: { name: 'f', arguments: { a: deepValue() } } }));
    const [assembled] = accumulator.finish().toolCalls;
    expect(assembled!.error).toContain('nested deeper than 256 levels');
  });

  it('drops extra_content JSON cannot carry, with a warning', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push(
      call({ extra_content: deepValue(), function: { name: 'f', arguments: '{}' } }),
    );
    const result = accumulator.finish();
    expect(result.toolCalls[0]!.extraContent).toBeUndefined();
    expect(result.warnings.map((w) => w.code)).toContain('TOOL_CALL_EXTRA_CONTENT_DROPPED');
  });

  it('raises a deeply nested in-band error as PROVIDER_STREAM_ERROR whose details JSON can carry', () => {
    const accumulator = new ToolCallAccumulator();
    const error = thrownBy(() => accumulator.push({ error: deepValue() }));
    expect(error).toBeInstanceOf(ProviderError);
    const streamError = error as OpenAIProviderError<'PROVIDER_STREAM_ERROR'>;
    expect(streamError.code).toBe('PROVIDER_STREAM_ERROR');
    expect(streamError.providerMessage).toContain('nested deeper than 256');
    expect(() => JSON.stringify((error as SkeinError).details)).not.toThrow();
    expect(() => structuredClone((error as SkeinError).details)).not.toThrow();
  });

  it.each([
    ['a tool-call index', () => call({ index: deepValue() })],
    ['a choice index', () => ({ choices: [{ index: deepValue(), delta: {} }] })],
  ])('names %s nested too deep in a typed error', (_, make) => {
    const error = thrownBy(() => new ToolCallAccumulator().push(make()));
    expect(SkeinError.isInstance(error)).toBe(true);
    expect(() => JSON.stringify((error as SkeinError).details)).not.toThrow();
  });

  it.each([
    ['a choice', { choices: [[]] }],
    ['a delta', { choices: [{ index: 0, delta: [] }] }],
    ['a tool-call fragment', chunk({ tool_calls: [[]] })],
    ['a function', chunk({ tool_calls: [{ index: 0, function: [] }] })],
  ])('refuses an array in place of %s', (_, value) => {
    const error = thrownBy(() => new ToolCallAccumulator().push(value));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'INVALID_CHUNK' });
  });
});

describe('maxTextLength', () => {
  it('stops text, reasoning and refusal past the bound with STREAM_LIMIT_EXCEEDED', () => {
    const accumulator = new ToolCallAccumulator({ maxTextLength: 10 });
    accumulator.push(chunk({ content: 'abcd', reasoning_content: 'efg' }));
    accumulator.push(chunk({ refusal: 'hij' }));
    const error = thrownBy(() => accumulator.push(chunk({ content: 'k' })));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'STREAM_LIMIT_EXCEEDED', retryable: false });
    expect((error as Error).message).toContain('maxTextLength');
    // Nothing of the refused delta was applied.
    expect(accumulator.finish().text).toBe('abcd');
  });

  it.each([
    ['maxTextLength', { maxTextLength: -1 }],
    ['maxToolCalls', { maxToolCalls: Number.NaN }],
    ['maxArgumentsLength', { maxArgumentsLength: Number.POSITIVE_INFINITY }],
    ['maxToolCallIndex', { maxToolCallIndex: 1.5 }],
    ['maxChoiceIndex', { maxChoiceIndex: '3' as unknown as number }],
  ])('refuses a bad %s', (name, options) => {
    const error = thrownBy(() => new ToolCallAccumulator(options));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ argument: name });
  });
});
