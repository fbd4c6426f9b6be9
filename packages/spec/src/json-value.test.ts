import { describe, expect, it } from 'vitest';
import { findNonJsonValue } from './json-value.js';

describe('findNonJsonValue', () => {
  it('accepts what JSON carries unchanged', () => {
    expect(
      findNonJsonValue({ a: [1, 'x', null, true, { b: -2.5 }], c: undefined }),
    ).toBeUndefined();
    expect(findNonJsonValue(Object.create(null))).toBeUndefined();
  });

  it.each([
    [{ n: 1n }, '$.n', 'BigInt'],
    [{ n: Number.NaN }, '$.n', 'NaN'],
    [{ list: [1, Number.POSITIVE_INFINITY] }, '$.list[1]', 'Infinity'],
    [{ f: () => 1 }, '$.f', 'function'],
    [{ d: new Date(0) }, '$.d', 'Date'],
    [{ m: new Map() }, '$.m', 'Map'],
    [[1, undefined], '$[1]', 'undefined'],
    [new Array(2), '$[0]', 'sparse'],
    [{ a: [{ b: [0, { c: 1n }] }] }, '$.a[0].b[1].c', 'BigInt'],
    [[[1], [2, [3, new Array(1)]]], '$[1][1][1][0]', 'sparse'],
  ])('refuses %o at %s', (value, path, reason) => {
    const found = findNonJsonValue(value);
    expect(found?.path).toBe(path);
    expect(found?.reason).toContain(reason);
  });

  it('refuses a cycle but accepts a shared (acyclic) reference', () => {
    const shared = { x: 1 };
    expect(findNonJsonValue({ a: shared, b: shared })).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(findNonJsonValue(cyclic, 'vars')).toEqual({
      path: 'vars.self',
      reason: 'a cycle (the value contains itself)',
    });
  });

  it('refuses nesting past the limit without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNonJsonValue(deep)?.reason).toContain('deeper');
  });
});
