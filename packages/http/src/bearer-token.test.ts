import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer-token.js';

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const b64token = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,80}$/), fc.stringMatching(/^={0,2}$/))
  .map(([body, pad]) => body + pad);
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

describe('bearerToken', () => {
  it('reads the token of any well-formed Bearer header, the scheme in any case', () => {
    fc.assert(
      fc.property(
        anyCase('bearer'),
        b64token,
        fc.integer({ min: 1, max: 3 }),
        (scheme, token, spaces) => {
          expect(bearerToken(`${scheme}${' '.repeat(spaces)}${token}`)).toBe(token);
          expect(bearerToken(` ${scheme} ${token} `)).toBe(token);
        },
      ),
    );
  });

  it('takes no header, and credentials of another scheme, as none', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken(null)).toBeUndefined();
    expect(bearerToken('')).toBeUndefined();
    expect(bearerToken('Basic YWRhOnNlY3JldA==')).toBeUndefined();
    expect(bearerToken('Bearerx abc')).toBeUndefined();
    expect(bearerToken('DPoP abc')).toBeUndefined();
  });

  it('refuses a Bearer header without one well-formed token, saying what is wrong', () => {
    expect(() => bearerToken('Bearer')).toThrow(/has no Bearer token/);
    expect(() => bearerToken('Bearer ')).toThrow(/has no Bearer token/);
    expect(() => bearerToken('Bearer a b')).toThrow(/more than one Bearer token/);
    expect(() => bearerToken('Bearer a,b')).toThrow(/characters a token cannot have/);
    expect(() => bearerToken('Bearer =abc')).toThrow(
      expect.objectContaining({ argument: 'Authorization' }),
    );
  });

  it('for any header, gives a well-formed token, none, or InvalidArgumentError: nothing else', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `Bearer ${s}`),
          fc.string().map((s) => `bearer  ${s}=`),
        ),
        (header) => {
          let token: string | undefined;
          try {
            token = bearerToken(header);
          } catch (error) {
            expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'Authorization' });
            return;
          }
          if (token !== undefined) expect(token).toMatch(/^[A-Za-z0-9\-._~+/]+=*$/);
        },
      ),
    );
  });
});
