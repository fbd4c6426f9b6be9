import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from './errors/invalid-argument-error.js';
import { checkThreadId, MAX_THREAD_ID_LENGTH, threadIdProblem } from './thread-id.js';

// Printable code points, astral ones (surrogate pairs) included.
const printable = fc
  .integer({ min: 0x20, max: 0x10ffff })
  .filter((c) => !(c >= 0x7f && c <= 0x9f) && !(c >= 0xd800 && c <= 0xdfff))
  .map((c) => String.fromCodePoint(c));

describe('checkThreadId', () => {
  it('takes every well-formed id of printable characters up to the limit', () => {
    fc.assert(
      fc.property(fc.array(printable, { minLength: 1, maxLength: 300 }), (chars) => {
        // Whole characters up to the limit (an astral one is two code units).
        let id = '';
        for (const c of chars) if (id.length + c.length <= MAX_THREAD_ID_LENGTH) id += c;
        expect(checkThreadId(id)).toBe(id);
      }),
    );
  });

  it('refuses any id holding a lone surrogate, wherever it is', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.integer({ min: 0xd800, max: 0xdfff }),
        fc.string({ maxLength: 20 }),
        (before, unit, after) => {
          const id = `a${before.replace(/[\ud800-\udfff]/g, '')}${String.fromCharCode(unit)}!${after.replace(/[\ud800-\udfff]/g, '')}`;
          expect(threadIdProblem(id)).toMatch(/well-formed Unicode/);
        },
      ),
    );
  });

  it.each([
    ['', /must not be empty/],
    [42, /must be a string, not number/],
    ['x'.repeat(MAX_THREAD_ID_LENGTH + 1), /at most 256/],
    ['a\u0000b', /control characters \(U\+0000 at 1\)/],
    ['id-\ud800', /lone surrogate/],
    ['\udc00', /lone surrogate/],
  ])('refuses %j with a typed error naming the argument', (value, problem) => {
    const error = (() => {
      try {
        checkThreadId(value, 'chat id');
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'chat id' });
    expect((error as Error).message).toMatch(problem);
  });
});
