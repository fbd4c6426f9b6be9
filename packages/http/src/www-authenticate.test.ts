import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseChallenge } from './test-support/parse-challenge.js';
import { formatChallenge } from './www-authenticate.js';

// Any code point, Latin-1 (controls included) as often as the rest. fast-check's own
// `unit: 'binary'` takes about 27 ms a string here, which under a busy machine's load once made
// this property run past the test's timeout.
const anyChar = fc
  .oneof(fc.integer({ min: 0, max: 0xff }), fc.integer({ min: 0x100, max: 0x10ffff }))
  .map((code) => String.fromCodePoint(code));

const paramName = fc.stringMatching(/^[a-z_]{1,20}$/);
// What a quoted-string keeps as it is: printable ASCII and tabs.
const printable = fc.stringMatching(/^[\t\x20-\x7e]*$/);

describe('formatChallenge', () => {
  it('writes any parameters as a challenge the RFC 9110 grammar reads back, in order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(paramName, printable), {
          selector: ([name]) => name,
          maxLength: 6,
        }),
        (pairs) => {
          const header = formatChallenge('Bearer', Object.fromEntries(pairs));
          expect(parseChallenge(header)).toEqual({
            scheme: 'Bearer',
            params: Object.fromEntries(pairs),
          });
        },
      ),
    );
  });

  it('makes any text a value a header can carry: controls and non-ASCII become "?"', () => {
    fc.assert(
      fc.property(fc.string({ unit: anyChar, maxLength: 60 }), (text) => {
        const header = formatChallenge('Bearer', { error_description: text });
        // Node and fetch take it as a header value (no CR, LF or NUL; nothing past U+00FF).
        expect(new Headers({ 'www-authenticate': header }).get('www-authenticate')).toBe(header);
        const read = parseChallenge(header).params.error_description!;
        expect(read).toHaveLength([...text].reduce((n, c) => n + c.length, 0));
        expect(read).toBe(text.replace(/[^\t\x20-\x7e]/g, '?'));
      }),
    );
  });

  it('writes a parameter named __proto__ as any other (a seed fast-check once drew)', () => {
    const params = Object.fromEntries([['__proto__', '']]);
    expect(formatChallenge('Bearer', params)).toBe('Bearer __proto__=""');
    expect(parseChallenge(formatChallenge('Bearer', params))).toEqual({ scheme: 'Bearer', params });
  });

  it('leaves out undefined parameters, and refuses names a header cannot carry', () => {
    expect(formatChallenge('Bearer', { realm: 'skein', error: undefined })).toBe(
      'Bearer realm="skein"',
    );
    expect(formatChallenge('Bearer')).toBe('Bearer');
    expect(formatChallenge('Bearer', { error_description: 'say "no" \\ here' })).toBe(
      'Bearer error_description="say \\"no\\" \\\\ here"',
    );
    expect(() => formatChallenge('Bear er')).toThrow(
      expect.objectContaining({ argument: 'scheme' }),
    );
    expect(() => formatChallenge('Bearer', { 'bad name': 'x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'params.bad name' }),
    );
  });
});
