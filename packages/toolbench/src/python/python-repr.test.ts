import { describe, expect, it } from 'vitest';
import { pyFloatRepr } from './python-float.js';
import { pythonRepr } from './python-repr.js';

// Expected values were printed by CPython 3 (repr()).
describe('pythonRepr', () => {
  it.each([
    ['plain', "'plain'"],
    ["it's", `"it's"`],
    ['say "hi"', `'say "hi"'`],
    [`both ' and "`, `'both \\' and "'`],
    ['back\\slash', "'back\\\\slash'"],
    ['tab\tnew\nline\rcr', "'tab\\tnew\\nline\\rcr'"],
    ['\x00\x1f\x7f', "'\\x00\\x1f\\x7f'"],
    ['é ü 中文', "'é ü 中文'"],
    ['\xa0nbsp', "'\\xa0nbsp'"],
    ['\u200bzero', "'\\u200bzero'"],
    ['\u2028ls', "'\\u2028ls'"],
    ['😀 emoji', "'😀 emoji'"],
    ['\ud800', "'\\ud800'"],
    ['\u{e0001}tag', "'\\U000e0001tag'"],
    ['\x85next', "'\\x85next'"],
  ])('writes the string %j as Python does', (input, expected) => {
    expect(pythonRepr(input)).toBe(expected);
  });

  it('writes containers, numbers and constants as Python does', () => {
    const value = [
      1,
      1.5,
      0.1,
      1e16,
      1e-5,
      123456789.123,
      1e22,
      2.5e-7,
      true,
      false,
      null,
      { a: [], b: {} },
    ];
    expect(pythonRepr(value)).toBe(
      "[1, 1.5, 0.1, 10000000000000000, 1e-05, 123456789.123, 10000000000000000000000, 2.5e-07, True, False, None, {'a': [], 'b': {}}]",
    );
  });

  it('refuses values Python has no repr for, naming where they are', () => {
    expect(() => pythonRepr({ a: [1, () => 1] })).toThrowError(/\$\.a\[1\]/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => pythonRepr(cycle)).toThrowError(
      expect.objectContaining({ code: 'TOOLBENCH_UNSUPPORTED_VALUE' }),
    );
  });
});

describe('pyFloatRepr', () => {
  it.each([
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e300, '1.5e+300'],
    [5e-324, '5e-324'],
    [1 / 3, '0.3333333333333333'],
    [2 ** 53, '9007199254740992.0'],
    [1e21, '1e+21'],
    [123e-20, '1.23e-18'],
    [-0, '-0.0'],
    [100, '100.0'],
  ])('writes %d as Python repr(float) does', (value, expected) => {
    expect(pyFloatRepr(value, 'python')).toBe(expected);
  });

  it('spells non-finite values as json.dumps and as repr do', () => {
    expect(pyFloatRepr(Number.NaN)).toBe('NaN');
    expect(pyFloatRepr(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(pyFloatRepr(Number.NEGATIVE_INFINITY, 'python')).toBe('-inf');
  });
});
