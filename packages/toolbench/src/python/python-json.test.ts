import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANSWER_FILES, type AnswerFile, readFixture } from '../testing/fixtures.js';
import { dumpPyJson, pyJsonToJs, pythonJsonDumps } from './python-json.js';
import { parsePyJson } from './python-json-parse.js';

// Expected values were printed by CPython 3 (json.dumps with default arguments).
describe('pythonJsonDumps', () => {
  it('uses Python separators and escapes non-ASCII as \\uXXXX (surrogate pairs for astral)', () => {
    const value = { error: '', response: { k: [1, 2.5, 'xé😀'], n: null, t: true } };
    expect(pythonJsonDumps(value)).toBe(
      '{"error": "", "response": {"k": [1, 2.5, "x\\u00e9\\ud83d\\ude00"], "n": null, "t": true}}',
    );
  });

  it.each([
    ['say "hi"', '"say \\"hi\\""'],
    ['\x00\x1f\x7f', '"\\u0000\\u001f\\u007f"'],
    ['\xa0nbsp', '"\\u00a0nbsp"'],
    ['\ud800', '"\\ud800"'],
    ['\b\f\n\r\t/', '"\\b\\f\\n\\r\\t/"'],
  ])('writes the string %j as json.dumps does', (input, expected) => {
    expect(pythonJsonDumps(input)).toBe(expected);
  });

  it('writes NaN and Infinity as Python does', () => {
    expect(pythonJsonDumps([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])).toBe(
      '[NaN, Infinity, -Infinity]',
    );
  });

  it('agrees with JSON.parse: what it writes reads back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(pythonJsonDumps(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  // Printed by CPython 3: json.dumps(s, ensure_ascii=False).
  it.each([
    ['say "hi"', '"say \\"hi\\""'],
    ['\x00\x1f\x7f', '"\\u0000\\u001f\x7f"'],
    ['\xa0nbsp', '"\xa0nbsp"'],
    ['\ud800', '"\ud800"'],
    ['\b\f\n\r\t/', '"\\b\\f\\n\\r\\t/"'],
    ['xé😀', '"xé😀"'],
  ])('writes the string %j as json.dumps(ensure_ascii=False) does', (input, expected) => {
    expect(pythonJsonDumps(input, { ensureAscii: false })).toBe(expected);
  });

  it('with ensureAscii false, escapes nothing but quotes, backslashes and controls', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        const text = pythonJsonDumps(value, { ensureAscii: false });
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(JSON.parse(text)).toEqual(JSON.parse(pythonJsonDumps(value)));
        for (const match of text.matchAll(/\\u([0-9a-f]{4})/g))
          expect(Number.parseInt(match[1]!, 16)).toBeLessThan(0x20);
      }),
    );
  });
});

describe('parsePyJson + dumpPyJson', () => {
  it('keeps int and float apart and key order as written, as Python does', () => {
    const parsed = parsePyJson('{"b": 1.0, "2": [10, 1e2, -0], "a": 12345678901234567890}');
    expect(parsed.ok && dumpPyJson(parsed.value)).toBe(
      '{"b": 1.0, "2": [10, 100.0, 0], "a": 12345678901234567890}',
    );
  });

  it('keeps the first position and the last value of a duplicate key', () => {
    const parsed = parsePyJson('{"a": 1, "b": 2, "a": 3}');
    expect(parsed.ok && dumpPyJson(parsed.value)).toBe('{"a": 3, "b": 2}');
  });

  it('accepts NaN/Infinity, refuses control characters unless non-strict, refuses extra data', () => {
    expect(parsePyJson('[NaN, -Infinity]').ok).toBe(true);
    expect(parsePyJson('"a\nb"').ok).toBe(false);
    const lenient = parsePyJson('"a\nb"', { strict: false });
    expect(lenient.ok && pyJsonToJs(lenient.value)).toBe('a\nb');
    expect(parsePyJson('{} x')).toMatchObject({ ok: false, error: 'Extra data' });
    expect(parsePyJson('{"a" 1}')).toMatchObject({ ok: false, error: "Expecting ':' delimiter" });
    expect(parsePyJson("{'a': 1}").ok).toBe(false);
    expect(parsePyJson('\ufeff{}').ok).toBe(false);
  });

  it('joins escaped surrogate pairs and keeps lone ones', () => {
    const parsed = parsePyJson('["\\ud83d\\ude00", "\\ud800x"]');
    expect(parsed.ok && pyJsonToJs(parsed.value)).toEqual(['😀', '\ud800x']);
  });

  it('reproduces every untruncated observation recorded in the fixtures byte for byte', () => {
    let checked = 0;
    for (const file of ANSWER_FILES) {
      const data = readFixture<AnswerFile>(file);
      for (const messages of data.answer_generation.train_messages) {
        for (const message of messages) {
          if (message.role !== 'function' || !message.content || message.content.endsWith('...'))
            continue;
          const parsed = parsePyJson(message.content);
          expect(parsed.ok, message.content).toBe(true);
          if (parsed.ok) expect(dumpPyJson(parsed.value)).toBe(message.content);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('agrees with JSON.parse on any JSON text', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const parsed = parsePyJson(text);
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(pyJsonToJs(parsed.value)).toEqual(JSON.parse(text));
      }),
    );
  });
});
