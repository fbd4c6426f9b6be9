import { ProviderError, SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { OpenAIProviderError } from '../errors/provider-errors.js';
import { brief, calls, chunk, fn, run } from './accumulator-test-chunks.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';

describe('null, "" and missing mean absent', () => {
  it('ignores explicit nulls on every field', () => {
    const result = run([
      chunk({ role: null, content: null, reasoning_content: null, tool_calls: null }),
      calls({ index: 0, id: 'call_1', type: 'function', ...fn({ name: 'a', arguments: '' }) }),
      calls({ index: 0, id: null, type: null, ...fn({ name: null, arguments: '{"x"' }) }),
      calls({ index: 0, id: '', ...fn({ name: '', arguments: ':1}' }) }),
      calls({ index: 0, function: null }),
      calls({ index: 0, ...fn({ arguments: null }) }),
    ]);
    expect(result.toolCalls).toEqual([
      { id: 'call_1', type: 'function', name: 'a', arguments: '{"x":1}' },
    ]);
    expect(result.text).toBe('');
  });

  it('treats the string "null" as no id (Mistral devstral)', () => {
    const result = run([
      calls({ index: 0, id: 'null', ...fn({ name: 'a', arguments: '{}' }) }),
      calls({ index: 0, id: 'call_real' }),
    ]);
    expect(result.toolCalls[0]!.id).toBe('call_real');
  });

  it('skips chunks with no or empty choices and keeps the last non-null usage', () => {
    const result = run([
      { choices: [], usage: null },
      { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
      chunk({ content: 'hi' }),
      { choices: [], usage: { prompt_tokens: 5, completion_tokens: 7 } },
      { choices: [], usage: null },
    ]);
    expect(result.text).toBe('hi');
    expect(result.usage).toEqual({ promptTokens: 5, completionTokens: 7, totalTokens: 12 });
    expect(result.rawUsage).toEqual({ prompt_tokens: 5, completion_tokens: 7 });
  });
});

describe('in-band errors', () => {
  it('raises PROVIDER_STREAM_ERROR with the provider code and message', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push(chunk({ content: 'a' }));
    let caught: unknown;
    try {
      accumulator.push({
        error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProviderError);
    const error = caught as OpenAIProviderError<'PROVIDER_STREAM_ERROR'>;
    expect(error.code).toBe('PROVIDER_STREAM_ERROR');
    expect(error.providerCode).toBe('rate_limit_exceeded');
    expect(error.providerType).toBe('requests');
    expect(error.providerMessage).toBe('Rate limit reached');
    expect(error.message).toContain('chunk 2');
    expect(SkeinError.isInstance(error)).toBe(true);
  });

  it('accepts a bare string error and a numeric code', () => {
    expect(() => run([{ error: 'model overloaded' }])).toThrow(/model overloaded/);
    try {
      run([{ error: { message: 'boom', code: 500 } }]);
    } catch (error) {
      expect((error as OpenAIProviderError<'PROVIDER_STREAM_ERROR'>).providerCode).toBe(500);
    }
    expect.assertions(2);
  });

  it('treats "error": null as absent', () => {
    expect(run([{ error: null, ...(chunk({ content: 'ok' }) as object) }]).text).toBe('ok');
  });
});

describe('keying calls', () => {
  it('keys by index, in order of first appearance, with indexes not starting at 0', () => {
    expect(
      brief([
        calls({ index: 5, id: 'b', ...fn({ name: 'second', arguments: '{"n":' }) }),
        calls({ index: 1, id: 'a', ...fn({ name: 'first', arguments: '{' }) }),
        calls({ index: 5, ...fn({ arguments: '2}' }) }, { index: 1, ...fn({ arguments: '}' }) }),
      ]),
    ).toEqual([
      { id: 'b', name: 'second', args: '{"n":2}' },
      { id: 'a', name: 'first', args: '{}' },
    ]);
  });

  it('starts a new call when an index with an id gets a different id and a name', () => {
    expect(
      brief([
        calls({ index: 0, id: 'x', ...fn({ name: 'a', arguments: '{"q":1}' }) }),
        calls({ index: 0, id: 'y', ...fn({ name: 'b', arguments: '{"q":' }) }),
        calls({ index: 0, ...fn({ arguments: '2}' }) }),
      ]),
    ).toEqual([
      { id: 'x', name: 'a', args: '{"q":1}' },
      { id: 'y', name: 'b', args: '{"q":2}' },
    ]);
  });

  it('keeps the first id when an index gets a different id without a name', () => {
    expect(
      brief([
        calls({ index: 0, id: 'x', ...fn({ name: 'a', arguments: '{' }) }),
        calls({ index: 0, id: 'y', ...fn({ arguments: '}' }) }),
      ]),
    ).toEqual([{ id: 'x', name: 'a', args: '{}' }]);
  });

  it('without index: matches by id, starts a call on a new id or name, continues on bare fragments', () => {
    expect(
      brief([
        calls({ id: 'c1', ...fn({ name: 'a', arguments: '{"p":' }) }),
        calls({ ...fn({ arguments: '1}' }) }),
        calls({ id: 'c2', ...fn({ name: 'b', arguments: '{' }) }),
        calls({ id: 'c1', ...fn({ arguments: '' }) }),
        calls({ ...fn({ name: 'c', arguments: '{"r":' }) }),
        calls({ ...fn({ arguments: '3}' }) }),
        calls({ id: 'c2', ...fn({ arguments: '}' }) }),
      ]),
    ).toMatchObject([
      { id: 'c1', name: 'a', args: '{"p":1}' },
      { id: 'c2', name: 'b', args: '{}' },
      { name: 'c', args: '{"r":3}' },
    ]);
  });

  it('without index: a late id or a repeated name completes the latest call', () => {
    expect(
      brief([
        calls({ ...fn({ name: 'a', arguments: '{"k"' }) }),
        calls({ id: 'late', ...fn({ name: 'a', arguments: ':' }) }),
        calls({ id: 'late', ...fn({ name: 'a', arguments: '1}' }) }),
      ]),
    ).toEqual([{ id: 'late', name: 'a', args: '{"k":1}' }]);
  });
});

describe('id, name and type', () => {
  it('takes the first non-empty value and never concatenates repeats', () => {
    const result = run([
      calls({
        index: 0,
        id: 'call_abc',
        type: 'function',
        ...fn({ name: 'web_search', arguments: '{"q":' }),
      }),
      calls({
        index: 0,
        id: 'call_abc',
        type: 'function',
        ...fn({ name: 'web_search', arguments: '"x"' }),
      }),
      calls({
        index: 0,
        id: 'call_abc',
        type: 'function',
        ...fn({ name: 'web_search', arguments: '}' }),
      }),
    ]);
    expect(result.toolCalls).toEqual([
      { id: 'call_abc', type: 'function', name: 'web_search', arguments: '{"q":"x"}' },
    ]);
  });

  it('accepts an id or a name that arrives on a later fragment', () => {
    expect(
      brief([
        calls({ index: 0, ...fn({ name: '', arguments: '' }) }),
        calls({ index: 0, ...fn({ arguments: '{"a":' }) }),
        calls({ index: 0, id: 'call_late', ...fn({ name: 'late_name', arguments: '1}' }) }),
      ]),
    ).toEqual([{ id: 'call_late', name: 'late_name', args: '{"a":1}' }]);
  });

  it('defaults a missing type to function', () => {
    expect(
      run([calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{}' }) })]).toolCalls[0]!.type,
    ).toBe('function');
  });

  it('marks a call of another type as not runnable', () => {
    const result = run([
      calls({ index: 0, id: 'i', type: 'custom', ...fn({ name: 'n', arguments: '{}' }) }),
    ]);
    expect(result.toolCalls[0]!.error).toContain('custom');
    expect(result.warnings.map((w) => w.code)).toEqual(['TOOL_CALL_TYPE_UNSUPPORTED']);
  });
});
