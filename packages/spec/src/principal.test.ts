import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from './errors/invalid-argument-error.js';
import { checkPrincipal, MAX_PRINCIPAL_LENGTH, principalProblem } from './principal.js';

// Printable code points, astral ones (surrogate pairs) included.
const printable = fc
  .integer({ min: 0x20, max: 0x10ffff })
  .filter((c) => !(c >= 0x7f && c <= 0x9f) && !(c >= 0xd800 && c <= 0xdfff))
  .map((c) => String.fromCodePoint(c));

describe('checkPrincipal', () => {
  it('takes every non-empty well-formed string of printable characters up to the limit', () => {
    fc.assert(
      fc.property(fc.array(printable, { minLength: 1, maxLength: 600 }), (chars) => {
        let principal = '';
        for (const c of chars)
          if (principal.length + c.length <= MAX_PRINCIPAL_LENGTH) principal += c;
        expect(checkPrincipal(principal)).toBe(principal);
      }),
    );
  });

  it.each([
    ['', /must not be empty/],
    [undefined, /must be a string, not undefined/],
    [7, /must be a string, not number/],
    ['a\u0000b', /control characters \(U\+0000 at 1\)/],
    ['\ud800', /well-formed Unicode/],
    ['x'.repeat(MAX_PRINCIPAL_LENGTH + 1), /at most 1024 characters \(this one has 1025\)/],
  ])('refuses %j, naming the argument and the problem', (value, problem) => {
    expect(principalProblem(value)).toMatch(problem);
    const error = (() => {
      try {
        checkPrincipal(value, 'options.principal');
      } catch (e) {
        return e;
      }
    })();
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'options.principal' });
    expect(String((error as Error).message)).toMatch(/^a principal /);
  });
});
