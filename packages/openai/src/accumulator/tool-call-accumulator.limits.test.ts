import { ProviderError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { OpenAIProviderErrorCode } from '../errors/provider-errors.js';
import { calls, chunk, fn, run } from './accumulator-test-chunks.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';

/** Expects `action` to throw a ProviderError with `code`. */
function expectProviderError(action: () => unknown, code: OpenAIProviderErrorCode): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(ProviderError.isInstance(thrown), String(thrown)).toBe(true);
  expect((thrown as ProviderError).code).toBe(code);
}

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
      expect(() => accumulator.push(bad)).toThrow(ProviderError);
      try {
        accumulator.push(bad);
      } catch (error) {
        expect((error as ProviderError).code).toBe('INVALID_TOOL_CALL_INDEX');
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
    expectProviderError(
      () => run([{ choices: [{ index: -2, delta: {} }] }]),
      'INVALID_CHOICE_INDEX',
    );
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
  ])('rejects %s with INVALID_CHUNK', (_, bad) => {
    const accumulator = new ToolCallAccumulator();
    expectProviderError(() => accumulator.push(bad), 'INVALID_CHUNK');
    expect(accumulator.chunks).toBe(0);
  });

  it('bounds the number of calls and the argument length', () => {
    expectProviderError(
      () =>
        run(
          [
            calls(
              { index: 0, id: 'a', ...fn({ name: 'n' }) },
              { index: 1, id: 'b', ...fn({ name: 'n' }) },
            ),
          ],
          { maxToolCalls: 1 },
        ),
      'STREAM_LIMIT_EXCEEDED',
    );
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
    expectProviderError(() => accumulator.push(chunk({ content: 'b' })), 'ACCUMULATOR_CLOSED');
  });
});
