import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyExact } from './exact-json.js';

describe('stringifyExact', () => {
  it('writes -0 as -0, wherever it sits', () => {
    const value = { a: -0, b: [0, -0, { c: -0 }], d: 'x' };
    const text = stringifyExact(value);
    expect(text).toBe('{"a":-0,"b":[0,-0,{"c":-0}],"d":"x"}');
    expect(Object.is(JSON.parse(text).a, -0)).toBe(true);
    expect(JSON.parse(text)).toEqual(value);
    expect(stringifyExact(-0)).toBe('-0');
  });

  it('is JSON.stringify for every JSON value without -0, and round-trips every JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = stringifyExact(value);
        expect(JSON.parse(text)).toEqual(value);
        if (!text.includes('-0')) expect(text).toBe(JSON.stringify(value));
      }),
      { numRuns: 2000 },
    );
  });
});
