import { describe, expect, it } from 'vitest';
import { plainCopy, withEntry } from './with-entry.js';

describe('plainCopy and withEntry', () => {
  it('copy own enumerable properties, an own `__proto__` key too, never the prototype', () => {
    const source = JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    for (const copy of [plainCopy(source), withEntry(source, 'b', 2)]) {
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      expect(Object.hasOwn(copy, '__proto__')).toBe(true);
      expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
      expect(copy.a).toBe(1);
    }
    const set = withEntry({ a: 1 }, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(set)).toBe(Object.prototype);
    expect(Object.keys(set)).toEqual(['a', '__proto__']);
  });
});
