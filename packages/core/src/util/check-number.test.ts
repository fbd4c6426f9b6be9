import { SkeinError } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkNumber, checkOptionalNumber } from './check-number.js';

const steps = { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true };

describe('checkNumber', () => {
  it('refuses NaN, infinities, out-of-range values, fractions and non-numbers by name and range', () => {
    for (const bad of [Number.NaN, Infinity, -Infinity, 0, -1, 1.5, '10', null, 10n]) {
      let error: unknown;
      try {
        checkNumber('maxSteps', bad, steps);
      } catch (e) {
        error = e;
      }
      expect(SkeinError.hasCode(error, 'INVALID_ARGUMENT'), String(bad)).toBe(true);
      expect((error as Error).message).toMatch(
        /^maxSteps must be an integer from 1 to 9007199254740991, got /,
      );
      expect((error as SkeinError).details).toMatchObject({ argument: 'maxSteps' });
    }
  });

  it('accepts every value within the range', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1000, noNaN: true }), (value) => {
        expect(checkNumber('delay', value, { min: 0, max: 1000 })).toBe(value);
      }),
    );
    expect(checkOptionalNumber('maxSteps', undefined, steps, 1000)).toBe(1000);
    expect(checkOptionalNumber('maxSteps', 7, steps, 1000)).toBe(7);
  });
});
