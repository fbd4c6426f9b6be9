import { describe, expect, it } from 'vitest';
import {
  excerpt,
  formatCount,
  formatEstimate,
  formatMs,
  formatScore,
  formatSigned,
} from './format-values.js';

describe('format values', () => {
  it('shows scores, differences and intervals with 3 decimals, a dash for what is not a number', () => {
    expect(formatScore(0.25)).toBe('0.250');
    expect(formatScore('1')).toBe('—');
    expect(formatSigned(0.25)).toBe('+0.250');
    expect(formatSigned(-0.0001)).toBe('0.000');
    expect(formatSigned(-0.5)).toBe('-0.500');
    expect(formatEstimate({ n: 2, mean: 0.5, ci: { lo: 0, hi: 1 } })).toBe('0.500 [0.000, 1.000]');
    expect(formatEstimate({ n: 0 })).toBe('—');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(Number.NaN)).toBe('—');
  });

  it('shows durations in a unit that fits', () => {
    expect(formatMs(12.4)).toBe('12 ms');
    expect(formatMs(1500)).toBe('1.50 s');
    expect(formatMs(900_000)).toBe('15.0 min');
    expect(formatMs(undefined)).toBe('—');
  });

  it('cuts long text by code point, and shows other values as JSON', () => {
    expect(excerpt('short', 10)).toBe('short');
    expect(excerpt('abcdef', 3)).toBe('abc…');
    expect(excerpt('😀'.repeat(5), 3)).toBe('😀😀😀…');
    expect(excerpt('😀'.repeat(3), 3)).toBe('😀😀😀');
    expect(excerpt({ a: [1] }, 20)).toBe('{"a":[1]}');
    expect(excerpt(undefined, 20)).toBe('');
  });
});
