import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from './json-text-depth.js';

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('exceedsJsonDepth', () => {
  it('agrees with the nesting of any JSON value, brackets inside strings included (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a') });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(text, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.nat({ max: 6 }), (v, max) => {
        expect(exceedsJsonDepth(JSON.stringify(v), max)).toBe(depthOf(v) > max);
      }),
      { numRuns: 500 },
    );
  });

  it('handles 100,000 levels without recursion', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(exceedsJsonDepth(deep, 256)).toBe(true);
    expect(exceedsJsonDepth(deep, 100_000)).toBe(false);
  });
});
