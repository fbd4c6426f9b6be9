import { describe, expect, it } from 'vitest';
import { bounded, boundedAttributes, boundedValue } from './bounded-value.js';

describe('bounded', () => {
  it('keeps text up to the limit as it is', () => {
    expect(bounded('abc', 3)).toBe('abc');
    expect(bounded('', 1)).toBe('');
  });

  it('ends a cut with how many characters went, within the limit', () => {
    const cut = bounded('a'.repeat(1000), 40);
    expect(cut).toBe(`${'a'.repeat(18)}…[truncated 982 chars]`);
    expect(cut).toHaveLength(40);
  });

  it('never exceeds the limit and always says what it cut', () => {
    // Lengths and limits around the points where the count in the marker gains a digit.
    const sizes = [1, 5, 9, 10, 11, 23, 24, 25, 26, 99, 100, 101, 999, 1000, 1001, 10_050];
    for (const length of sizes)
      for (const limit of sizes) {
        const text = 'abcdefghij'.repeat(Math.ceil(length / 10)).slice(0, length);
        const cut = bounded(text, limit);
        const at = `${length} chars at ${limit}`;
        expect(cut.length, at).toBeLessThanOrEqual(limit);
        if (text.length <= limit) {
          expect(cut, at).toBe(text);
          continue;
        }
        const match = /…\[truncated (\d+) chars\]$/.exec(cut);
        if (match === null) {
          expect(cut, at).toBe(text.slice(0, limit)); // no room for a marker
          continue;
        }
        expect(cut.length, at).toBeGreaterThanOrEqual(limit - 1);
        const kept = cut.length - match[0].length;
        expect(cut.slice(0, kept), at).toBe(text.slice(0, kept));
        expect(kept + Number(match[1]), at).toBe(text.length);
      }
  });

  it('does not split a surrogate pair', () => {
    const text = '😀'.repeat(100);
    const cut = bounded(text, 40);
    const kept = cut.slice(0, cut.indexOf('…'));
    expect(kept).toBe('😀'.repeat(kept.length / 2));
    expect(cut.length).toBeLessThanOrEqual(40);
  });

  it('cuts plainly below the marker’s own length', () => {
    expect(bounded('abcdefghijklmnopqrstuvwxyz', 5)).toBe('abcde');
  });
});

describe('boundedValue and boundedAttributes', () => {
  it('cuts strings and string array items, and leaves other values alone', () => {
    const long = 'x'.repeat(100);
    expect(boundedValue(long, 50)).toHaveLength(50);
    expect(boundedValue(123, 5)).toBe(123);
    expect(boundedValue(true, 1)).toBe(true);
    const items = ['ok', long, null];
    const cut = boundedValue(items, 50) as (string | null)[];
    expect(cut[0]).toBe('ok');
    expect(cut[1]).toHaveLength(50);
    expect(cut[2]).toBeNull();
    expect(items[1]).toBe(long);
  });

  it('returns the very same object when nothing is too long', () => {
    const attributes = { a: 'short', b: 3, c: ['x'] };
    expect(boundedAttributes(attributes, 10)).toBe(attributes);
    expect(boundedValue(attributes.c, 10)).toBe(attributes.c);
  });

  it('copies attributes before cutting, leaving the caller’s object as it was', () => {
    const long = 'y'.repeat(100);
    const attributes = { a: long, b: 1 };
    const cut = boundedAttributes(attributes, 50);
    expect(cut).not.toBe(attributes);
    expect(cut.a).toHaveLength(50);
    expect(cut.b).toBe(1);
    expect(attributes.a).toBe(long);
  });
});
