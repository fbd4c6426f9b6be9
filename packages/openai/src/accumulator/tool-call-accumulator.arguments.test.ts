import { describe, expect, it } from 'vitest';
import { brief, calls, chunk, fn, run } from './accumulator-test-chunks.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';

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
