import { SkeinError } from '@skein/conversation';
import type { LLMStreamEvent } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { AccumulatorClosedError } from '../errors/accumulator-closed-error.js';
import { InvalidChoiceIndexError } from '../errors/invalid-choice-index-error.js';
import { InvalidChunkError } from '../errors/invalid-chunk-error.js';
import { InvalidToolCallIndexError } from '../errors/invalid-tool-call-index-error.js';
import { ProviderStreamError } from '../errors/provider-stream-error.js';
import { StreamLimitExceededError } from '../errors/stream-limit-exceeded-error.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';
import type { ToolCallAccumulatorOptions } from './types.js';

type Fragment = Record<string, unknown>;

/** A chunk whose only choice carries `delta`. */
function chunk(delta: Record<string, unknown>, finish: string | null = null): unknown {
  return { object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] };
}

function calls(...fragments: Fragment[]): unknown {
  return chunk({ tool_calls: fragments });
}

function fn(fields: { name?: unknown; arguments?: unknown }): {
  function: Record<string, unknown>;
} {
  return { function: fields };
}

function run(chunks: readonly unknown[], options: ToolCallAccumulatorOptions = {}) {
  const accumulator = new ToolCallAccumulator(options);
  for (const c of chunks) accumulator.push(c);
  return accumulator.finish();
}

function brief(chunks: readonly unknown[]) {
  return run(chunks).toolCalls.map(({ id, name, arguments: args }) => ({ id, name, args }));
}

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
  it('raises ProviderStreamError with the provider code and message', () => {
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
    expect(caught).toBeInstanceOf(ProviderStreamError);
    const error = caught as ProviderStreamError;
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
      expect((error as ProviderStreamError).providerCode).toBe(500);
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

describe('arguments', () => {
  it('adds the first fragment once when it carries the whole arguments', () => {
    expect(
      brief([calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{"a":1}' }) })]),
    ).toEqual([{ id: 'i', name: 'n', args: '{"a":1}' }]);
  });

  it('serialises non-string arguments once, drops an identical repeat, and reports it', () => {
    const result = run([
      calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: { city: 'Paris', n: 2 } }) }),
      calls({ index: 0, ...fn({ arguments: { city: 'Paris', n: 2 } }) }),
    ]);
    expect(result.toolCalls[0]!.arguments).toBe('{"city":"Paris","n":2}');
    expect(result.warnings.map((w) => w.code)).toEqual(['TOOL_CALL_ARGUMENTS_NOT_STRING']);
  });

  it('uses {} when no arguments arrived', () => {
    expect(brief([calls({ index: 0, id: 'i', ...fn({ name: 'n' }) })])[0]!.args).toBe('{}');
  });

  it('finalises only at the end: fragments after a complete JSON value still count', () => {
    expect(
      brief([
        calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{"a":1}' }) }),
        calls({ index: 0, ...fn({ arguments: '' }) }),
        calls({ index: 0, ...fn({ arguments: null }) }),
      ]),
    ).toEqual([{ id: 'i', name: 'n', args: '{"a":1}' }]);
    // "1" parses as JSON, but "12" is what was meant.
    expect(
      brief([
        calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{"a":1' }) }),
        calls({ index: 0, ...fn({ arguments: '2}' }) }),
      ])[0]!.args,
    ).toBe('{"a":12}');
  });

  it('repairs invalid JSON with jsonrepair and warns', () => {
    const result = run([
      calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: "{city: 'Paris'," }) }),
    ]);
    expect(result.toolCalls[0]).toEqual({
      id: 'i',
      type: 'function',
      name: 'n',
      arguments: '{"city": "Paris"}',
    });
    expect(result.warnings[0]!.code).toBe('TOOL_CALL_ARGUMENTS_REPAIRED');
  });

  it('marks arguments that cannot be repaired into an object, so the tool is not run', () => {
    for (const raw of ['{"a":1}{"b":2}', 'not json at all']) {
      const result = run([calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: raw }) })]);
      const call = result.toolCalls[0]!;
      expect(call.arguments).toBe(raw);
      expect(call.error).toMatch(/not valid JSON/);
      expect(result.warnings.map((w) => w.code)).toEqual(['TOOL_CALL_ARGUMENTS_INVALID']);
    }
  });
});

describe('finish reason', () => {
  it('applies the fragments of the chunk that carries the finish reason first', () => {
    const result = run([
      calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{"a":' }) }),
      {
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, ...fn({ arguments: '1}' }) }] },
            finish_reason: 'tool_calls',
          },
        ],
      },
    ]);
    expect(result.toolCalls[0]!.arguments).toBe('{"a":1}');
    expect(result.finishReason).toBe('tool_calls');
  });

  it('reports the provider value even when it is "stop" with calls present, and keeps the first', () => {
    const result = run([
      calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{}' }) }),
      chunk({}, 'stop'),
      chunk({}, 'tool_calls'),
    ]);
    expect(result.finishReason).toBe('stop');
    expect(result.toolCalls).toHaveLength(1);
  });

  it('reports no finish reason when none came', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push(chunk({ content: 'x' }));
    expect(accumulator.finishReasonSeen).toBe(false);
    expect(accumulator.finish().finishReason).toBeUndefined();
  });
});

describe('defaults filled in at the end', () => {
  it('generates a unique call_ id for a call without one, with a warning', () => {
    const result = run([
      calls({ index: 0, id: null, ...fn({ name: 'a', arguments: '{}' }) }),
      calls({ index: 1, ...fn({ name: 'b', arguments: '{}' }) }),
    ]);
    const [first, second] = result.toolCalls;
    expect(first!.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(second!.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(first!.id).not.toBe(second!.id);
    expect(result.warnings.map((w) => w.code)).toEqual([
      'TOOL_CALL_ID_GENERATED',
      'TOOL_CALL_ID_GENERATED',
    ]);
    expect(result.warnings[0]!.details).toMatchObject({ name: 'a', id: first!.id });
  });

  it('gives a later call that reuses an id a fresh one', () => {
    const result = run([
      calls({ index: 0, id: 'same', ...fn({ name: 'a', arguments: '{}' }) }),
      calls({ index: 1, id: 'same', ...fn({ name: 'b', arguments: '{}' }) }),
    ]);
    expect(result.toolCalls[0]!.id).toBe('same');
    expect(result.toolCalls[1]!.id).not.toBe('same');
    expect(result.warnings.map((w) => w.code)).toEqual(['TOOL_CALL_ID_DUPLICATE']);
  });

  it('uses the injected id generator, skipping ids already taken', () => {
    const ids = ['taken', 'fresh'];
    const result = run(
      [
        calls({ index: 0, id: 'taken', ...fn({ name: 'a', arguments: '{}' }) }),
        calls({ index: 1, ...fn({ name: 'b', arguments: '{}' }) }),
      ],
      { generateId: () => ids.shift()! },
    );
    expect(result.toolCalls.map((c) => c.id)).toEqual(['taken', 'fresh']);
  });

  it('turns a call without a name into an error call (never "None"), with a warning', () => {
    const result = run([calls({ index: 0, id: 'c', ...fn({ arguments: '{"a":1}' }) })]);
    const call = result.toolCalls[0]!;
    expect(call.name).toBe('');
    expect(call.error).toMatch(/without giving its name/);
    expect(result.warnings.map((w) => w.code)).toEqual(['TOOL_CALL_NAME_MISSING']);
  });
});

describe('bad input', () => {
  it.each([[-1], [1.5], ['0'], [1024], [Number.MAX_SAFE_INTEGER], [Number.NaN], [true]])(
    'rejects tool-call index %s with a typed error and leaves state untouched',
    (index) => {
      const accumulator = new ToolCallAccumulator();
      accumulator.push(calls({ index: 0, id: 'ok', ...fn({ name: 'n', arguments: '{"a":' }) }));
      const bad = {
        choices: [
          {
            index: 0,
            delta: {
              content: 'should not appear',
              tool_calls: [
                { index: 0, ...fn({ arguments: 'X' }) },
                { index, ...fn({ arguments: 'Y' }) },
              ],
            },
          },
        ],
      };
      expect(() => accumulator.push(bad)).toThrow(InvalidToolCallIndexError);
      try {
        accumulator.push(bad);
      } catch (error) {
        expect((error as InvalidToolCallIndexError).code).toBe('INVALID_TOOL_CALL_INDEX');
        expect((error as Error).message).toContain('tool_calls[1].index');
      }
      accumulator.push(calls({ index: 0, ...fn({ arguments: '1}' }) }));
      const result = accumulator.finish();
      expect(result.text).toBe('');
      expect(result.toolCalls.map((c) => c.arguments)).toEqual(['{"a":1}']);
      expect(result.chunks).toBe(2);
    },
  );

  it('honours a configured index bound', () => {
    expect(() =>
      run([calls({ index: 9, id: 'a', ...fn({ name: 'n' }) })], { maxToolCallIndex: 8 }),
    ).toThrow(/0\.\.8/);
  });

  it('rejects a bad choice index', () => {
    expect(() => run([{ choices: [{ index: -2, delta: {} }] }])).toThrow(InvalidChoiceIndexError);
  });

  it.each([
    ['a non-object chunk', 'data'],
    ['an array chunk', []],
    ['choices that are not an array', { choices: {} }],
    ['a choice that is not an object', { choices: [3] }],
    ['a delta that is not an object', { choices: [{ delta: 'x' }] }],
    ['tool_calls that are not an array', chunk({ tool_calls: {} })],
    ['a fragment that is not an object', chunk({ tool_calls: [null] })],
    ['a function that is not an object', chunk({ tool_calls: [{ index: 0, function: 'f' }] })],
  ])('rejects %s with InvalidChunkError', (_, bad) => {
    const accumulator = new ToolCallAccumulator();
    expect(() => accumulator.push(bad)).toThrow(InvalidChunkError);
    expect(accumulator.chunks).toBe(0);
  });

  it('bounds the number of calls and the argument length', () => {
    expect(() =>
      run(
        [
          calls(
            { index: 0, id: 'a', ...fn({ name: 'n' }) },
            { index: 1, id: 'b', ...fn({ name: 'n' }) },
          ),
        ],
        { maxToolCalls: 1 },
      ),
    ).toThrow(StreamLimitExceededError);
    expect(() =>
      run(
        [
          calls({ index: 0, id: 'a', ...fn({ name: 'n', arguments: '{"a":' }) }),
          calls({ index: 0, ...fn({ arguments: '"long"}' }) }),
        ],
        { maxArgumentsLength: 8 },
      ),
    ).toThrow(/more than 8 argument characters/);
  });

  it('refuses push() after finish() and returns the same result twice', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push(chunk({ content: 'a' }));
    const result = accumulator.finish();
    expect(accumulator.finish()).toBe(result);
    expect(() => accumulator.push(chunk({ content: 'b' }))).toThrow(AccumulatorClosedError);
  });
});

describe('text, reasoning and events', () => {
  it('keeps text, reasoning and refusal in separate buffers', () => {
    const result = run([
      chunk({ reasoning_content: 'think ' }),
      chunk({ reasoning: 'more' }),
      chunk({ reasoning_content: 'x', reasoning: 'x' }),
      chunk({ content: 'Hello' }),
      calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{}' }) }),
      chunk({ content: '\n' }),
      chunk({ refusal: 'no' }),
    ]);
    expect(result).toMatchObject({ reasoning: 'think morex', text: 'Hello\n', refusal: 'no' });
  });

  it('streams text, reasoning, tool-call deltas (id and name once) and warnings', () => {
    const events: LLMStreamEvent[] = [];
    run(
      [
        chunk({ reasoning_content: 'r' }),
        chunk({ content: 't' }),
        calls({ index: 3, id: 'c', ...fn({ name: 'n', arguments: '' }) }),
        calls({ index: 3, id: 'c', ...fn({ name: 'n', arguments: '{' }) }),
        calls({ index: 3, ...fn({ arguments: '' }) }),
        calls({ index: 3, ...fn({ arguments: '}' }) }),
        calls({ index: 4, ...fn({ name: 'm', arguments: '{}' }) }),
      ],
      { onEvent: (e) => events.push(e) },
    );
    expect(events.slice(0, 5)).toEqual([
      { type: 'reasoning-delta', delta: 'r' },
      { type: 'text-delta', delta: 't' },
      { type: 'tool-call-delta', index: 0, id: 'c', name: 'n', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '}' },
    ]);
    expect(events[5]).toEqual({
      type: 'tool-call-delta',
      index: 1,
      name: 'm',
      argumentsDelta: '{}',
    });
    expect(events[6]).toMatchObject({ type: 'warning', code: 'TOOL_CALL_ID_GENERATED' });
    expect(events).toHaveLength(7);
  });

  it('assembles every choice, with the first one seen as the message', () => {
    const result = run([
      {
        choices: [
          { index: 0, delta: { content: 'zero' } },
          {
            index: 1,
            delta: { tool_calls: [{ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{}' }) }] },
          },
        ],
      },
      { choices: [{ index: 1, delta: {}, finish_reason: 'tool_calls' }] },
    ]);
    expect(result.text).toBe('zero');
    expect(result.toolCalls).toEqual([]);
    expect(result.choices).toHaveLength(2);
    expect(result.choices[1]).toMatchObject({ index: 1, finishReason: 'tool_calls' });
    expect(result.choices[1]!.toolCalls).toHaveLength(1);
  });

  it('records the model and response id of the first chunk that has them', () => {
    const result = run([
      { id: 'resp', model: 'm1', choices: [] },
      { id: 'other', model: 'm2', choices: [] },
    ]);
    expect(result).toMatchObject({ model: 'm1', responseId: 'resp' });
  });
});
